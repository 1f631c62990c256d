import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { removeNodeStep } from '../../src/lifecycle/node/remove-node-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { JOB_FOLDER_TAG, runSteps } from '../support/run-steps.js';
import { createScriptedShell, type ScriptedReply } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** `stop k3s + delete Node` of k3s-dev-3, its `systemctl stop k3s` answered so. */
async function removeWithStop(stop: ScriptedReply) {
  const memory = createMemoryKube();
  const shell = createScriptedShell((call) => (call.argv.includes('systemctl') ? stop : undefined));
  const { result, reporter } = await runSteps({
    world,
    shell,
    kube: memory.kube,
    steps: [removeNodeStep('1-remove-node', 'k3s-dev-3')],
  });
  return { result, reporter, registered: memory.nodes.has('k3s-dev-3') };
}

describe('stop k3s + delete Node', () => {
  it('keeps the Node of a node that answers but did not stop k3s, saying what to do', async () => {
    const { result, reporter, registered } = await removeWithStop({
      exitCode: 1,
      stderr: ['Job for k3s.service canceled.'],
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(reporter.planFailure()?.message).toBe(
      'k3s-dev-3 answered but systemctl stop k3s exited 1: its Node was not deleted (a running k3s would register it again); it stays cordoned. Stop k3s on it, then run the reprovision again',
    );
    expect(registered).toBe(true);
  });

  it('deletes the Node of a node that does not answer at all (it is down)', async () => {
    const { result, reporter, registered } = await removeWithStop({
      error: new ClusterBotError('SSH_UNREACHABLE', 'k3s-dev-3 is unreachable: connect ETIMEDOUT'),
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(reporter.texts()).toContain(
      '1-remove-node k3s-dev-3 did not answer (k3s-dev-3 is unreachable: connect ETIMEDOUT); deleting its Node anyway',
    );
    expect(registered).toBe(false);
  });

  it('at the job’s end prunes its detached folders on the ops host and on the node systemctl ran on', async () => {
    const shell = createScriptedShell(() => undefined);
    await runSteps({
      world,
      shell,
      kube: createMemoryKube().kube,
      steps: [removeNodeStep('1-remove-node', 'k3s-dev-3')],
      pruneDetachedOlderThanMinutes: 60,
    });
    expect(shell.prunes).toEqual([
      {
        label: 'ops',
        root: `${world.ops.repoPath}/.cache/cluster-bot`,
        jobFolder: `job-1-${JOB_FOLDER_TAG}`,
      },
      { label: 'k3s-dev-3', root: '/var/lib/cluster-bot', jobFolder: `job-1-${JOB_FOLDER_TAG}` },
    ]);
  });

  it('counts a node with no k3s unit (systemctl exit 5) as stopped', async () => {
    const { result, reporter, registered } = await removeWithStop({ exitCode: 5 });
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(reporter.texts()).toContain(
      '1-remove-node succeeded: no k3s unit on it (nothing to stop); Node k3s-dev-3 deleted (k3s removes its etcd member)',
    );
    expect(registered).toBe(false);
  });
});
