import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { findNode, nodeTarget, presentedHostKeyFactKey } from '../targets.js';

const PROBE_INTERVAL_MS = 3_000;
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Waits until the node answers over SSH. After a rebuild the node has a new host key: the step only
 * reads it (no login, no command) and keeps it for a person to accept in the next step. Without a
 * rebuild the node must present the key known_hosts pins: a different or unknown key fails at once.
 */
export function waitForSshStep(id: string, node: string, options: { rebuilt: boolean }): Step {
  return {
    id,
    title: 'wait for SSH',
    target: node,
    async run(ctx) {
      if (options.rebuilt) {
        const key = await untilAnswered(ctx, node, () =>
          ctx.shell.probeHostKey(nodeTarget(ctx, findNode(ctx.cluster, node)), PROBE_TIMEOUT_MS),
        );
        await ctx.facts.set(presentedHostKeyFactKey(node), key);
        await ctx.progress(`${node} answers with a new host key ${key.fingerprint} (${key.keyType})`);
        return {
          status: 'succeeded',
          summary: `${node} is up with host key ${key.fingerprint}; nothing runs on it until a person accepts that key`,
        };
      }
      await untilAnswered(ctx, node, () =>
        ctx.shell.exec(nodeTarget(ctx, findNode(ctx.cluster, node)), {
          argv: ['true'],
          timeoutMs: PROBE_TIMEOUT_MS,
          signal: ctx.signal,
        }),
      );
      return { status: 'succeeded', summary: `${node} is up with the host key known_hosts pins` };
    },
  };
}

/** Tries until the deadline; a host key that is not the pinned one is an answer, and a final one. */
async function untilAnswered<T>(ctx: StepContext, node: string, attempt: () => Promise<T>): Promise<T> {
  const deadline = ctx.clock.now() + ctx.cluster.timeouts.sshWait;
  let lastError = '';
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (
        isClusterBotError(error, 'CANCELLED') ||
        isClusterBotError(error, 'SSH_HOST_KEY_MISMATCH') ||
        isClusterBotError(error, 'SSH_HOST_KEY_UNKNOWN')
      ) {
        throw error;
      }
      lastError = (error as Error).message;
    }
    if (ctx.clock.now() >= deadline) {
      throw new ClusterBotError('SSH_UNREACHABLE', `${node} did not answer over SSH in time: ${lastError}`, {
        details: { node },
      });
    }
    await ctx.clock.sleep(PROBE_INTERVAL_MS, ctx.signal);
  }
}
