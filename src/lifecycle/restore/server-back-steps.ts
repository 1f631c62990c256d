import type { Step, StepContext } from '../plan/step.js';
import { findNode } from '../targets.js';
import { DB_ASIDE_SHOWN, dbAside, K3S_DB_DIR, snapshotBeingRestored } from './restore-facts.js';
import { waitForServerBack } from './server-back-gate.js';
import { folderThere, k3sActive, runOnServer } from './server-commands.js';
import { stopWithStates } from './stop-with-states.js';

/** The server holding the snapshot starts as the restored cluster's only member; the API is back. */
export function startRestoredServerStep(id: string, snapshot: string): Step {
  return stopWithStates(
    {
      id,
      title: 'start the restored server',
      target: `the server holding ${snapshot}`,
      commandLine:
        'systemctl start k3s (as root, on the server holding it); wait for it Ready with the etcd role',
      async run(ctx) {
        const { server } = snapshotBeingRestored(ctx);
        return { status: 'succeeded', summary: await startAndWait(ctx, server) };
      },
    },
    (ctx) => {
      const { server } = snapshotBeingRestored(ctx);
      return `find out why k3s on ${server} does not come up (\`journalctl -u k3s\`); once it is Ready, each other server re-joins after moving ${K3S_DB_DIR} aside`;
    },
  );
}

/**
 * One other server re-joins the restored cluster: its old etcd data would make it the member of a
 * cluster that is gone, so it is moved aside (kept, never deleted) before k3s starts. The server
 * holding the snapshot was restored instead: skipped. A resumed job finds the data already moved.
 */
export function rejoinServerStep(id: string, server: string): Step {
  return stopWithStates(
    {
      id,
      title: `re-join ${server}`,
      target: server,
      commandLine: `mv ${K3S_DB_DIR} ${DB_ASIDE_SHOWN}; systemctl start k3s (as root, on ${server}, unless it holds the snapshot); wait for it Ready with the etcd role`,
      async run(ctx) {
        if (snapshotBeingRestored(ctx).server === server) {
          return {
            status: 'skipped',
            summary: `${server} holds the snapshot: it was restored, not re-joined`,
          };
        }
        const entry = findNode(ctx.cluster, server);
        const aside = dbAside(ctx);
        if (!(await folderThere(ctx, entry, aside)) && (await folderThere(ctx, entry, K3S_DB_DIR))) {
          await runOnServer(ctx, entry, ['mv', K3S_DB_DIR, aside]);
          await ctx.progress(`${server}: old etcd data kept in ${aside}`);
        }
        return { status: 'succeeded', summary: await startAndWait(ctx, server) };
      },
    },
    (ctx) =>
      `on ${server} (its old data is in ${dbAside(ctx)} if it was moved), find out why k3s does not re-join (\`journalctl -u k3s\`); then re-join the servers after it one at a time: \`mv ${K3S_DB_DIR} ${dbAside(ctx)}\`, \`systemctl start k3s\`, wait for it Ready`,
  );
}

async function startAndWait(ctx: StepContext, server: string): Promise<string> {
  const entry = findNode(ctx.cluster, server);
  if (!(await k3sActive(ctx, entry))) await runOnServer(ctx, entry, ['systemctl', 'start', 'k3s']);
  await ctx.progress(`k3s started on ${server}; waiting for it Ready with the etcd role`);
  return waitForServerBack(ctx, server);
}
