import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { findNode } from '../targets.js';
import { K3S_DB_DIR, snapshotBeingRestored } from './restore-facts.js';
import { runOnServerDetached } from './server-commands.js';
import { stopWithStates } from './stop-with-states.js';

/** What k3s logs once it has restored and reset the membership, before it exits 0 (pkg/etcd/etcd.go). */
const RESET_DONE = /restart without --cluster-reset flag now/;
/** The job fact kept once k3s said it: a worker that takes the reset over follows only the lines after those shown. */
const RESET_SAID_FACT = 'restore.resetSaid';

export function clusterResetArgv(path: string): string[] {
  return ['k3s', 'server', '--cluster-reset', `--cluster-reset-restore-path=${path}`];
}

/**
 * On the server holding the snapshot, k3s restores it and resets etcd's membership to that server
 * alone (its own data moved to `server/db/etcd-old-<time>`), then exits. Done only when k3s says so.
 * It runs detached, under its own timeout: a reset cut off by a dying worker, or run a second time
 * by the one that resumes the job, is the half-restored cluster the procedure exists to avoid.
 */
export function clusterResetStep(id: string, snapshot: string): Step {
  return stopWithStates(
    {
      id,
      title: 'restore the snapshot (cluster reset)',
      target: `the server holding ${snapshot}`,
      commandLine: `${clusterResetArgv(`/var/lib/rancher/k3s/server/db/snapshots/${snapshot}`).join(' ')} (as root, on the server holding it)`,
      async run(ctx) {
        const restoring = snapshotBeingRestored(ctx);
        const holder = findNode(ctx.cluster, restoring.server);
        const lines = await runOnServerDetached(ctx, holder, clusterResetArgv(restoring.path), {
          timeoutMs: ctx.cluster.timeouts.clusterReset,
          onLine: (line) => (RESET_DONE.test(line) ? ctx.facts.set(RESET_SAID_FACT, true) : undefined),
        });
        const said = lines.some((line) => RESET_DONE.test(line)) || ctx.facts.get(RESET_SAID_FACT) === true;
        if (!said) {
          throw new ClusterBotError(
            'COMMAND_FAILED',
            `k3s on ${holder.name} exited without saying the etcd membership was reset (last line: ${lines.at(-1) ?? 'none'})`,
            { details: { server: holder.name } },
          );
        }
        return {
          status: 'succeeded',
          summary: `${restoring.name} restored on ${holder.name}; etcd membership reset to ${holder.name} (its old data in ${K3S_DB_DIR}/etcd-old-*)`,
        };
      },
    },
    (ctx) => {
      const { server, path } = snapshotBeingRestored(ctx);
      return `on ${server}, run \`${clusterResetArgv(path).join(' ')}\` as root until k3s says the membership was reset, then \`systemctl start k3s\` there; the other servers re-join one at a time after moving server/db aside`;
    },
  );
}
