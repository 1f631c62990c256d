import { formatDuration } from '../../config/parse-duration.js';
import { ClusterBotError } from '../../errors.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { Step } from '../plan/step.js';
import { isoMinute } from '../snapshots/list-snapshots-step.js';
import { clusterResetArgv } from './cluster-reset-step.js';
import { findSnapshot } from './find-snapshot.js';
import { RESTORE_SNAPSHOT_FACT, serversOf, snapshotBeingRestored } from './restore-facts.js';

/** Distinct approvers a restore needs: two on production whatever its usual count, one elsewhere. */
export function restoreApprovers(production: boolean): number {
  return production ? 2 : 1;
}

/**
 * The restore's one approval, given before anything stops: it names the snapshot's server, time and
 * age, and what is lost. The snapshot it was given for is kept as a job fact; every later step
 * restores exactly that one.
 */
export function restoreApprovalStep(id: string, snapshot: string, production: boolean): Step {
  return {
    id,
    title: `approve the restore from ${snapshot}`,
    target: 'every server (k3s stopped on all, then back one at a time)',
    approval: {
      reason:
        'restores etcd from a snapshot as k3s documents for HA: k3s stops on every server (the API is down), ' +
        'the server holding the snapshot restores it, then each other server re-joins with its old data moved aside',
      mark: '⚠',
      minimumApprovals: restoreApprovers(production),
      required: async () => true,
      async bind(ctx) {
        const found = await findSnapshot(ctx, snapshot);
        if (typeof found === 'string') throw new ClusterBotError('PRECONDITION_FAILED', found);
        await ctx.facts.set(RESTORE_SNAPSHOT_FACT, found);
        const others = serversOf(ctx).filter((server) => server.name !== found.server);
        const age = formatDuration(Math.max(0, ctx.clock.now() - found.createdAt));
        return {
          commandLine: clusterResetArgv(found.path).join(' '),
          targets: `${found.server} (holds the snapshot), then ${others.map((server) => server.name).join(', ')} one at a time`,
          consequence:
            `the cluster goes back to ${found.name} on ${found.server}, taken ${isoMinute(found.createdAt)} (${age} ago): ` +
            `everything written to ${ctx.cluster.name} since then is lost (every object created, changed or deleted after it)`,
          fingerprint: bindingFingerprint(undefined, [found.server, found.path, String(found.createdAt)]),
        };
      },
    },
    async run(ctx) {
      const { name, server, createdAt } = snapshotBeingRestored(ctx);
      return {
        status: 'succeeded',
        summary: `restore from ${name} on ${server} (${isoMinute(createdAt)}) approved by ${ctx.approvedBy.join(', ') || 'nobody'}`,
      };
    },
  };
}
