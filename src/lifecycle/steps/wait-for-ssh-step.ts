import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { findNode, hostKeyFactKey, nodeTarget } from '../targets.js';

const PROBE_INTERVAL_MS = 3_000;
const PROBE_TIMEOUT_MS = 10_000;

/**
 * A rebuilt node has a new host key. The bot shows its fingerprint and pins it for this node in
 * this job only; known_hosts is not changed, so nothing outside the job starts trusting it.
 */
export function waitForSshStep(id: string, node: string): Step {
  return {
    id,
    title: 'wait for SSH',
    target: node,
    async run(ctx) {
      const entry = findNode(ctx.cluster, node);
      const target = nodeTarget(ctx.cluster, entry);
      const deadline = ctx.clock.now() + ctx.cluster.timeouts.sshWait;
      let lastError = '';
      for (;;) {
        try {
          const fingerprint = await ctx.shell.probeHostKey(target, PROBE_TIMEOUT_MS);
          await ctx.facts.set(hostKeyFactKey(node), fingerprint);
          await ctx.shell.exec(nodeTarget(ctx.cluster, entry, fingerprint), {
            argv: ['true'],
            timeoutMs: PROBE_TIMEOUT_MS,
            signal: ctx.signal,
          });
          await ctx.progress(`${node} answers with host key ${fingerprint}`);
          return {
            status: 'succeeded',
            summary: `${node} is up; new host key ${fingerprint} pinned for this job only`,
          };
        } catch (error) {
          if (isClusterBotError(error, 'CANCELLED')) throw error;
          lastError = (error as Error).message;
        }
        if (ctx.clock.now() >= deadline) {
          throw new ClusterBotError(
            'SSH_UNREACHABLE',
            `${node} did not answer over SSH in time: ${lastError}`,
            {
              details: { node },
            },
          );
        }
        await ctx.clock.sleep(PROBE_INTERVAL_MS, ctx.signal);
      }
    },
  };
}
