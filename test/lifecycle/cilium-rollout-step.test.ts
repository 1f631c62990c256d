import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ciliumRolloutStep } from '../../src/lifecycle/cilium/cilium-rollout-step.js';
import type { KubeGateway, PodState } from '../../src/lifecycle/ports/kube-gateway.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { runSteps } from '../support/run-steps.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

describe('watching a Cilium rollout', () => {
  it('right after a rollback is applied, the crash-looping agent it replaces is not taken for a broken new one', async () => {
    // The broken revision rev1 runs everywhere, crash-looping on k3s-dev-2; `helm rollback` has just
    // written the old template (generation 2), which the DaemonSet controller has not seen yet.
    const memory = createMemoryKube();
    memory.patchDaemonSet('kube-system/cilium', { generation: 2, observedGeneration: 1 });
    const crashLooping: PodState = {
      ...memory.pods[1]!,
      ready: false,
      problems: [{ container: 'config', init: true, reason: 'CrashLoopBackOff', restarts: 5 }],
    };
    memory.pods[1] = crashLooping;
    let reads = 0;
    const kube: KubeGateway = {
      ...memory.kube,
      async readDaemonSet(namespace, name) {
        reads += 1;
        // The controller catches up on the third look: revision rev0 (the good one) rolls out.
        if (reads === 3) {
          memory.patchDaemonSet('kube-system/cilium', { observedGeneration: 2 });
          memory.revisions.push('rev0');
          memory.pods.forEach((pod, i) => {
            memory.pods[i] = {
              ...pod,
              name: `cilium-new-${i}`,
              revisionHash: 'rev0',
              ready: true,
              problems: [],
            };
          });
        }
        return memory.kube.readDaemonSet(namespace, name);
      },
    };

    const { result, reporter } = await runSteps({
      world,
      command: { verb: 'cilium', cluster: 'dev' },
      steps: [ciliumRolloutStep('1-cilium-rollout', 'dev')],
      kube,
    });

    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(reporter.events.filter((event) => event.type === 'gate-failed')).toEqual([]);
    expect(reads).toBeGreaterThanOrEqual(3);
  });
});
