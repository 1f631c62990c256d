import { ClusterBotError } from '../../errors.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { BindingIdentity, Step, StepContext } from '../plan/step.js';
import type { PresentedHostKey } from '../ports/remote-shell.js';
import { findNode, hostKeyFactKey, nodeTarget, presentedHostKeyFactKey } from '../targets.js';
import { updateOpsKnownHosts } from './update-ops-known-hosts.js';

/**
 * A rebuilt node's new host key is trusted only once a person compared it and approved: until then
 * nothing runs on the node. Then the key is pinned for this job, proved with a first command, kept
 * as the bot's pin for the node (later jobs take it while the mounted known_hosts holds the old key)
 * and written to the ops host's known_hosts so the playbooks' own SSH reaches the node.
 */
export function acceptHostKeyStep(id: string, node: string): Step {
  return {
    id,
    title: 'accept new host key',
    target: node,
    commandLine: `pin the key ${node} presented, keep it as the bot's pin; ssh-keygen -R + append in the ops host's known_hosts`,
    approval: {
      reason:
        `${node} was rebuilt and presents a new SSH host key. Compare the fingerprint with the one on ` +
        `the node's console (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) before approving: ` +
        'nothing runs on the node until then',
      mark: '⚠',
      compare: 'a host key to compare',
      required: async () => true,
      bind: async (ctx) => ({ ...acceptance(node, presentedKey(ctx, node)), targets: node }),
      // The key pinned is the one the job holds at the act: one that changed since the click is not it.
      current: async (ctx) => acceptance(node, presentedKey(ctx, node)),
    },
    async run(ctx) {
      const key = presentedKey(ctx, node);
      const entry = findNode(ctx.cluster, node);
      await ctx.facts.set(hostKeyFactKey(node), key.fingerprint);
      // The first command on the node, through the accepted key only: a swapped key fails here.
      await ctx.shell.exec(nodeTarget(ctx, entry), {
        argv: ['true'],
        timeoutMs: ctx.cluster.timeouts.nodeCommand,
        signal: ctx.signal,
      });
      await ctx.hostKeyPins.keep(ctx.cluster.name, node, {
        ...key,
        jobId: ctx.jobId,
        approvedBy: ctx.approvedBy,
        at: ctx.clock.now(),
      });
      const file = await updateOpsKnownHosts(ctx, entry, key);
      await ctx.progress(`${file} on the ops host now holds ${key.fingerprint} for ${node}`);
      return {
        status: 'succeeded',
        summary:
          `host key ${key.fingerprint} accepted for ${node}: kept as the bot's pin until the mounted known_hosts ` +
          `holds it, written to ${file} on the ops host`,
      };
    },
  };
}

function acceptance(node: string, key: PresentedHostKey): BindingIdentity {
  return {
    commandLine: `accept ${key.fingerprint} (${key.keyType}) as the host key of ${node}`,
    fingerprint: bindingFingerprint(undefined, ['accept-host-key', node, key.keyType, key.publicKey]),
  };
}

function presentedKey(ctx: StepContext, node: string): PresentedHostKey {
  const key = ctx.facts.get<PresentedHostKey>(presentedHostKeyFactKey(node));
  if (!key) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `no new host key was read from ${node}: wait for SSH first`,
      {
        details: { node },
      },
    );
  }
  return key;
}
