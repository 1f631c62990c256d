import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { RESTORE_SNAPSHOT_FACT } from '../../src/lifecycle/restore/restore-facts.js';
import { rejoinServerStep } from '../../src/lifecycle/restore/server-back-steps.js';
import { loadExampleWorld } from '../support/example-world.js';
import { JOB_FOLDER_TAG, runSteps } from '../support/run-steps.js';
import { createScriptedShell, type ShellCall } from '../support/scripted-shell.js';

const DB = '/var/lib/rancher/k3s/server/db';
const OWN_ASIDE = `${DB}.cluster-bot-job-1-${JOB_FOLDER_TAG}`;
/** What job-1 sets aside by its id alone: another deployment's job-1, or one from before folder tags. */
const BARE_ID_ASIDE = `${DB}.cluster-bot-job-1`;

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** k3s-dev-1 as the step sees it as root: its folders, and k3s stopped until started. */
function server(folders: string[], k3s: 'active' | 'stopped') {
  const there = new Set(folders);
  const done: string[] = [];
  const shell = createScriptedShell((call: ShellCall) => {
    // The command as root, without its sudo.
    const start = call.argv.findIndex((arg) => ['test', 'mv', 'systemctl'].includes(arg));
    if (start < 0) return undefined;
    const argv = call.argv.slice(start);
    const [command, ...args] = argv;
    if (command === 'test') return { exitCode: there.has(args[1]!) ? 0 : 1 };
    if (command === 'mv') {
      there.delete(args[0]!);
      there.add(args[1]!);
    } else if (argv.join(' ') === 'systemctl is-active k3s') {
      return { exitCode: k3s === 'active' ? 0 : 3 };
    }
    done.push(argv.join(' '));
    return undefined;
  });
  return { shell, there, done };
}

/** job-1 re-joins k3s-dev-1 after the restore on k3s-dev-2. */
async function rejoin(node: ReturnType<typeof server>, folderTag: string | undefined) {
  const checkpoints = createMemoryCheckpointStore();
  await checkpoints.set('_facts', {
    status: 'succeeded',
    data: {
      [RESTORE_SNAPSHOT_FACT]: {
        name: 'etcd-snapshot-k3s-dev-2-1764590400',
        server: 'k3s-dev-2',
        path: '/var/lib/rancher/k3s/server/db/snapshots/etcd-snapshot-k3s-dev-2-1764590400',
        createdAt: 1764590400000,
        sizeBytes: 3565158,
      },
    },
  });
  const { result } = await runSteps({
    world,
    command: { verb: 'restore', cluster: 'dev', snapshot: 'etcd-snapshot-k3s-dev-2-1764590400' },
    steps: [rejoinServerStep('6-rejoin-k3s-dev-1', 'k3s-dev-1')],
    shell: node.shell,
    checkpoints,
    folderTag,
  });
  return result;
}

describe('a server re-joining a restored cluster', () => {
  it('moves its old data aside under its job’s own name though another run’s of the same job id is there, before k3s starts', async () => {
    const node = server([DB, BARE_ID_ASIDE], 'stopped');
    expect(await rejoin(node, JOB_FOLDER_TAG)).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(node.done).toEqual([`mv ${DB} ${OWN_ASIDE}`, 'systemctl start k3s']);
    expect([...node.there].sort()).toEqual([BARE_ID_ASIDE, OWN_ASIDE]);
  });

  it('of a job recorded before folder tags, resumed after k3s re-joined on fresh data, finds its data under its bare id and moves nothing', async () => {
    const node = server([BARE_ID_ASIDE, DB], 'active');
    expect(await rejoin(node, undefined)).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(node.done).toEqual([]);
    expect([...node.there].sort()).toEqual([DB, BARE_ID_ASIDE]);
  });
});
