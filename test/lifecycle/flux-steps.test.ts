import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import {
  FLUX_RESUMED_FACT,
  FLUX_SUSPENDED_EARLIER_FACT,
  FLUX_SUSPENDED_FACT,
  fluxResumeStep,
  underSuspendedFlux,
} from '../../src/lifecycle/cilium/flux-steps.js';
import { loadJobFacts } from '../../src/lifecycle/engine/job-facts.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { createCrashableCheckpoints } from '../support/crashable-checkpoints.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const command = { verb: 'cilium', cluster: 'dev', mode: { kind: 'resume-flux' } } as const;

const ciliumRelease = (state: { ready: boolean; suspended: boolean }) => ({
  name: 'cilium',
  namespace: 'kube-system',
  ...state,
  chartVersion: '1.20.1',
  generation: 2,
  observedGeneration: 2,
});

// The resume step of `cilium --resume-flux` (its plan's preflight and approval: build-plan.test.ts, the lab).
describe('cilium --resume-flux', () => {
  it('refuses a cluster where Flux has no cilium HelmRelease, running nothing', async () => {
    const shell = createScriptedShell(() => undefined);
    const { result } = await runSteps({
      world,
      command,
      steps: [fluxResumeStep('1-resume-flux', 'dev', true)],
      shell,
    });
    expect(result).toMatchObject({
      status: 'finished',
      outcome: 'failed',
      summary: expect.stringContaining('there is no HelmRelease kube-system/cilium on dev to resume'),
    });
    expect(shell.calls).toEqual([]);
  });

  it('finding it resumed by hand, runs nothing and records that nothing is left suspended', async () => {
    const memory = createMemoryKube();
    memory.helmReleases.set('kube-system/cilium', ciliumRelease({ ready: true, suspended: false }));
    const shell = createScriptedShell(() => undefined);
    const checkpoints = createMemoryCheckpointStore();
    const { reporter } = await runSteps({
      world,
      command,
      steps: [fluxResumeStep('1-resume-flux', 'dev', true)],
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

describe('a cilium job around a Flux found suspended', () => {
  const ciliumCommand = { verb: 'cilium', cluster: 'dev' } as const;
  const change: Step = {
    id: '1-change',
    title: 'change Cilium',
    target: 'dev',
    run: async () => ({ status: 'succeeded', summary: 'changed' }),
  };
  const suspendedRelease = () => {
    const memory = createMemoryKube();
    memory.helmReleases.set('kube-system/cilium', ciliumRelease({ ready: false, suspended: true }));
    return memory;
  };
  const steps = () => underSuspendedFlux('dev', [change], fluxResumeStep('2-resume-flux', 'dev'));

  it('leaves a suspension a person made as it was, and says so', async () => {
    const shell = createScriptedShell(() => undefined);
    const checkpoints = createMemoryCheckpointStore();
    const { result, reporter } = await runSteps({
      world,
      command: ciliumCommand,
      steps: steps(),
      shell,
      kube: suspendedRelease().kube,
      checkpoints,
    });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(shell.calls).toEqual([]);
    expect(reporter.texts()).toContainEqual(
      expect.stringContaining('Flux was already suspended before this job; left as it was'),
    );
    expect(reporter.texts()).toContain(
      '2-resume-flux skipped: Flux was already suspended before this job; left as it was',
    );
    // Nothing recorded: status and the reminder keep saying nothing of it.
    expect((await loadJobFacts(checkpoints)).get(FLUX_SUSPENDED_FACT)).toBeUndefined();
  });

  it('takes over a suspension an earlier bot job left, and resumes it after a good verify', async () => {
    const files = opsRepoFiles({
      'infra/ansible/group_vars/all.yml': 'cluster_kubeconfig_name: dev.kubeconfig\n',
    });
    const shell = createScriptedShell(files);
    const checkpoints = createMemoryCheckpointStore();
    await (await loadJobFacts(checkpoints)).set(FLUX_SUSPENDED_EARLIER_FACT, 7);
    const { result, reporter } = await runSteps({
      world,
      command: ciliumCommand,
      steps: steps(),
      shell,
      kube: suspendedRelease().kube,
      checkpoints,
    });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(reporter.texts()).toContainEqual(
      expect.stringContaining("Flux's HelmRelease kube-system/cilium was left suspended by job #7"),
    );
    expect(reporter.texts()).toContain(
      '2-resume-flux succeeded: HelmRelease kube-system/cilium resumed: Flux reconciles Cilium again',
    );
    expect(shell.calls.map((call) => call.argv.join(' '))).toContainEqual(
      expect.stringContaining('flux resume helmrelease cilium -n kube-system'),
    );
    expect(shell.calls.map((call) => call.argv.join(' '))).toContainEqual(
      expect.stringContaining('flux resume helmrelease cilium -n kube-system'),
    );
    expect((await loadJobFacts(checkpoints)).get(FLUX_SUSPENDED_FACT)).toBe(false);
  });
});

describe('a worker killed between a flux command and the fact that records it', () => {
  const ciliumCommand = { verb: 'cilium', cluster: 'dev' } as const;
  const change: Step = {
    id: '1-change',
    title: 'change Cilium',
    target: 'dev',
    run: async () => ({ status: 'succeeded', summary: 'changed' }),
  };
  const files = opsRepoFiles({
    'infra/ansible/group_vars/all.yml': 'cluster_kubeconfig_name: dev.kubeconfig\n',
  });
  const steps = () => underSuspendedFlux('dev', [change], fluxResumeStep('2-resume-flux', 'dev'));

  /** Flux as the memory kube has it; `flux <verb>` flips it, and the worker dies right after `killAfter`. */
  function fluxLab(killAfter: 'suspend' | 'resume') {
    const memory = createMemoryKube();
    memory.helmReleases.set('kube-system/cilium', ciliumRelease({ ready: true, suspended: false }));
    const checkpoints = createCrashableCheckpoints();
    let killed = false;
    const shell = createScriptedShell((call) => {
      const verb = (['suspend', 'resume'] as const).find((candidate) =>
        call.argv.join(' ').includes(`flux ${candidate} helmrelease cilium`),
      );
      if (!verb) return files(call);
      memory.helmReleases.set('kube-system/cilium', {
        ...memory.helmReleases.get('kube-system/cilium')!,
        suspended: verb === 'suspend',
      });
      if (verb !== killAfter || killed) return undefined;
      killed = true;
      checkpoints.crash();
      return { error: new Error('worker killed') };
    });
    const run = () =>
      runSteps({ world, command: ciliumCommand, steps: steps(), shell, kube: memory.kube, checkpoints });
    return { checkpoints, shell, run };
  }

  it('after `flux suspend`, the next worker knows the suspension is its own and resumes Flux after a good verify', async () => {
    const lab = fluxLab('suspend');
    await lab.run();
    lab.checkpoints.revive();
    const { result, reporter } = await lab.run();
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(reporter.texts().join('\n')).not.toContain('left as it was');
    expect(reporter.texts()).toContain(
      '2-resume-flux succeeded: HelmRelease kube-system/cilium resumed: Flux reconciles Cilium again',
    );
    expect((await loadJobFacts(lab.checkpoints)).get(FLUX_SUSPENDED_FACT)).toBe(false);
  });

  it('after `flux resume`, the next worker records the resume, so what follows watches Flux’s rollout', async () => {
    const lab = fluxLab('resume');
    await lab.run();
    lab.checkpoints.revive();
    const { result, reporter } = await lab.run();
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(reporter.texts()).toContain(
      '2-resume-flux succeeded: HelmRelease kube-system/cilium resumed: Flux reconciles Cilium again',
    );
    const facts = await loadJobFacts(lab.checkpoints);
    expect(facts.get(FLUX_RESUMED_FACT)).toBe(true);
    expect(facts.get(FLUX_SUSPENDED_FACT)).toBe(false);
    // The command is idempotent, but a release found resumed is not resumed twice.
    const resumes = lab.shell.calls.filter((call) => call.argv.join(' ').includes('flux resume'));
    expect(resumes).toHaveLength(1);
  });
});
