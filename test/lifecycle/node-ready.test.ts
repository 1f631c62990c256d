import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { nodeReadyStep } from '../../src/lifecycle/gates/node-ready-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { runSteps } from '../support/run-steps.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

async function afterRejoin(change: (nodes: ReturnType<typeof createMemoryKube>['nodes']) => void) {
  const memory = createMemoryKube();
  change(memory.nodes);
  return runSteps({
    world,
    command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-3' },
    steps: [nodeReadyStep('1-ready', 'k3s-dev-3')],
    kube: memory.kube,
  });
}

describe('after a re-join', () => {
  it('every server must be Ready with the etcd role, not only the rebuilt node', async () => {
    const ok = await afterRejoin(() => undefined);
    expect(ok.result).toMatchObject({ status: 'finished', outcome: 'succeeded' });

    const noEtcd = await afterRejoin((nodes) => {
      nodes.set('k3s-dev-3', { ...nodes.get('k3s-dev-3')!, etcd: false });
    });
    expect(noEtcd.result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(noEtcd.reporter.planFailure()?.message).toContain(
      'every server Ready with the etcd role: k3s-dev-3 has no etcd role',
    );
  });
});
