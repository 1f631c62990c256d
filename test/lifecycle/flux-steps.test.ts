import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { loadJobFacts } from '../../src/lifecycle/engine/job-facts.js';
import { resumeFluxPlan } from '../../src/lifecycle/plans/resume-flux-plan.js';
import { FLUX_SUSPENDED_FACT } from '../../src/lifecycle/steps/flux-steps.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const command = { verb: 'cilium', cluster: 'dev', mode: { kind: 'resume-flux' } } as const;

describe('cilium --resume-flux', () => {
  it('refuses a cluster where Flux has no cilium HelmRelease, running nothing', async () => {
    const shell = createScriptedShell(() => undefined);
    const { result } = await runSteps({ world, command, steps: resumeFluxPlan(world.clusters.dev!), shell });
    expect(result).toMatchObject({
      status: 'finished',
      outcome: 'failed',
      summary: expect.stringContaining('there is no HelmRelease kube-system/cilium on dev to resume'),
    });
    expect(shell.calls).toEqual([]);
  });

  it('finding it resumed by hand, runs nothing and records that nothing is left suspended', async () => {
    const memory = createMemoryKube();
    memory.helmReleases.set('kube-system/cilium', {
      name: 'cilium',
      namespace: 'kube-system',
      ready: true,
      suspended: false,
      chartVersion: '1.20.1',
    });
    const shell = createScriptedShell(() => undefined);
    const checkpoints = createMemoryCheckpointStore();
    const { reporter } = await runSteps({
      world,
      command,
      steps: resumeFluxPlan(world.clusters.dev!),
      shell,
      kube: memory.kube,
      checkpoints,
    });
    expect(reporter.texts()).toContain(
      '1-resume-flux skipped: HelmRelease kube-system/cilium is not suspended',
    );
    expect(shell.calls).toEqual([]);
    expect((await loadJobFacts(checkpoints)).get(FLUX_SUSPENDED_FACT)).toBe(false);
  });
});
