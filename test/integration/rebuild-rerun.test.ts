import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cordonDrainStep } from '../../src/lifecycle/node/cordon-drain-step.js';
import { removeNodeStep } from '../../src/lifecycle/node/remove-node-step.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { runSteps } from '../support/run-steps.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

describe('taking a node out again after an earlier run deleted its Node (kube-sim answers 404 as the API does)', () => {
  it(
    'cordon, drain and delete skip the absent Node and say so; nothing fails',
    async () => {
      await lab.devKube.deleteNode('k3s-dev-3');
      await waitFor('k3s-dev-3 gone', async () =>
        lab.sim.state().nodes.some((node) => node.metadata.name === 'k3s-dev-3') ? undefined : true,
      );
      const { result, reporter } = await runSteps({
        world: lab.world,
        kube: lab.devKube,
        shell: createSshRemoteShell({ connectTimeoutMs: 3_000 }),
        steps: [
          cordonDrainStep('2-cordon-drain', 'k3s-dev-3', {
            reason: 'takes k3s-dev-3 out',
            mark: '⚠',
            required: async () => false,
            bind: async () => ({ commandLine: 'cordon', targets: 'k3s-dev-3', fingerprint: 'f' }),
          }),
          removeNodeStep('4-remove-node', 'k3s-dev-3'),
        ],
      });

      expect(reporter.planFailure()).toBeUndefined();
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(reporter.texts()).toEqual(
        expect.arrayContaining([
          '2-cordon-drain Node k3s-dev-3 is not registered (an earlier run deleted it?): nothing to cordon or drain',
          '4-remove-node Node k3s-dev-3 is not registered (an earlier run deleted it?): nothing to delete',
        ]),
      );
      expect(lab.sim.requests.some((request) => request.method === 'PATCH')).toBe(false);
      lab.sim.joinNode('k3s-dev-3');
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
