import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { cordonDrainStep } from '../../src/lifecycle/node/cordon-drain-step.js';
import { removeNodeStep } from '../../src/lifecycle/node/remove-node-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { runSteps } from '../support/run-steps.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const takeOut = () => [
  cordonDrainStep('1-cordon-drain', 'k3s-dev-3', {
    reason: 'takes k3s-dev-3 out',
    mark: '⚠',
    required: async () => false,
    bind: async () => ({ commandLine: 'cordon + drain k3s-dev-3', targets: 'k3s-dev-3', fingerprint: 'f' }),
  }),
  removeNodeStep('2-remove-node', 'k3s-dev-3'),
];

describe('a rebuild run again after an earlier run deleted the Node', () => {
  it('the memory kube answers a cordon of a missing Node with the API server 404', async () => {
    const memory = createMemoryKube();
    memory.nodes.delete('k3s-dev-3');
    await expect(memory.kube.setUnschedulable('k3s-dev-3', true)).rejects.toMatchObject({
      code: 'KUBE_REQUEST_FAILED',
      message: 'cordon k3s-dev-3: nodes "k3s-dev-3" not found',
      details: { status: 404 },
    });
  });

  it('cordon, drain and delete skip the absent Node, each saying so in the thread', async () => {
    const memory = createMemoryKube();
    memory.nodes.delete('k3s-dev-3');
    const { result, reporter } = await runSteps({ world, steps: takeOut(), kube: memory.kube });

    expect(reporter.planFailure()).toBeUndefined();
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    const texts = reporter.texts();
    expect(texts).toContain(
      '1-cordon-drain Node k3s-dev-3 is not registered (an earlier run deleted it?): nothing to cordon or drain',
    );
    expect(texts).toContain(
      '2-remove-node Node k3s-dev-3 is not registered (an earlier run deleted it?): nothing to delete',
    );
    expect(texts).toContain('2-remove-node succeeded: k3s stopped; Node k3s-dev-3 was already absent');
  });
});
