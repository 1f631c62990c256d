import { ClusterBotError } from '../../errors.js';
import { rootPath, runAsRootDetached } from '../node/run-as-root.js';
import type { Step } from '../plan/step.js';
import { snapshotServer } from './snapshot-server.js';

const SAVED = /Snapshot (\S+) saved/;
const SNAPSHOT_DIR = '/var/lib/rancher/k3s/server/db/snapshots/';
/** How the bot names its snapshots (`/cluster snapshots` marks them by it). */
export const BOT_SNAPSHOT_PREFIX = 'cluster-bot-';

/**
 * An etcd snapshot before a server is taken away. It is written to the disk of the server that
 * takes it, so it is taken on a surviving Ready server, never on the one about to be wiped.
 */
export function etcdSnapshotStep(id: string, node: string): Step {
  return {
    id,
    title: 'etcd snapshot',
    target: `a Ready server other than ${node}`,
    commandLine: `k3s etcd-snapshot save --name cluster-bot-<job> (on a Ready etcd server other than ${node})`,
    detached: true,
    async run(ctx) {
      const survivor = await snapshotServer(ctx, node);
      if (!survivor) {
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `no Ready etcd server other than ${node} to take the snapshot on: nothing was taken away`,
        );
      }
      // The job id alone, unlike the job's files (jobFolderName): k3s appends the server and the
      // second, so another run's snapshot of the same job id is another file, and the step reads the
      // name it got from its own run's output, never looks it up by prefix.
      const name = `${BOT_SNAPSHOT_PREFIX}${ctx.jobId}`;
      const result = await runAsRootDetached(
        ctx,
        survivor,
        ['k3s', 'etcd-snapshot', 'save', '--name', name],
        await rootPath(ctx, survivor),
      );
      const saved = result.lines.map((line) => SAVED.exec(line)?.[1]).find(Boolean);
      if (result.exitCode !== 0 || !saved) {
        const why = result.failure ?? result.lines.at(-1) ?? `exit ${result.exitCode}`;
        throw new ClusterBotError(
          'COMMAND_FAILED',
          `etcd snapshot on ${survivor.name} failed (${why}): ${node} was not taken away`,
          { details: { server: survivor.name, exitCode: result.exitCode } },
        );
      }
      await ctx.note(`etcd snapshot ${saved} saved on ${survivor.name} (${SNAPSHOT_DIR})`);
      return { status: 'succeeded', summary: `etcd snapshot ${saved} on ${survivor.name}` };
    },
  };
}
