import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import type { StepContext } from '../../src/lifecycle/plan/step.js';
import { playbookStep } from '../../src/lifecycle/playbook/playbook-step.js';
import type { RemoteShell } from '../../src/lifecycle/ports/remote-shell.js';
import { loadExampleWorld } from '../support/example-world.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const RECAP = [
  'PLAY RECAP *********************************************************************',
  'k3s-dev-1                  : ok=3    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0',
];

/** The repo's answer to cluster_kubeconfig_name: every ansible run gets the cluster's KUBECONFIG. */
const GROUP_VARS = opsRepoFiles({
  'infra/ansible/group_vars/all.yml': 'cluster_kubeconfig_name: dev.kubeconfig\n',
});

/** A cilium.yml run watched alongside, the way the rollout's stuck-agent watch is. */
function watchedCilium(watch: (ctx: StepContext) => Promise<void>) {
  return playbookStep(world, {
    id: '1-cilium',
    invocation: { playbook: 'cilium.yml', extraVars: {} },
    target: 'dev',
    hosts: 'read-only',
    alongside: watch,
  });
}

describe('a playbook watched alongside', () => {
  it('drops the alert of a watcher that fails only as the playbook ends: the step succeeds, nobody is alerted', async () => {
    const step = watchedCilium(async (ctx) => {
      // Seen just as the playbook finished: the step after it (the rollout watch) looks again.
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      await ctx.gateFailed('Cilium rollout', 'agent not Ready');
      throw new ClusterBotError('GATE_FAILED', 'rollout stopped');
    });
    const { result, reporter } = await runSteps({
      world,
      steps: [step],
      shell: createScriptedShell((call) => GROUP_VARS(call) ?? { stdout: RECAP }),
    });
    expect(reporter.planFailure()).toBeUndefined();
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(reporter.events.filter((event) => event.type === 'gate-failed')).toEqual([]);
  });

  it('alerts once, with the watcher’s words, when the watcher stops the playbook', async () => {
    const step = watchedCilium(async (ctx) => {
      await ctx.gateFailed('Cilium rollout', 'pod cilium-x on k3s-dev-2: CrashLoopBackOff');
      throw new ClusterBotError('GATE_FAILED', 'rollout stopped at a broken agent');
    });
    // The playbook runs until it is stopped, then ends as a killed ansible-playbook does; the reads
    // before it (the repo, which ansible.cfg Ansible reads) answer at once.
    const reads = createScriptedShell(GROUP_VARS);
    const untilStopped: RemoteShell['exec'] = async (target, request) => {
      if (request.argv[0] !== 'ansible-playbook') return reads.exec(target, request);
      if (!request.signal?.aborted)
        await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
      return { exitCode: 143, signal: null, durationMs: 1 };
    };
    const shell: RemoteShell = {
      ...reads,
      exec: untilStopped,
      runDetached: untilStopped,
    };
    const { result, reporter } = await runSteps({ world, steps: [step], shell });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(reporter.planFailure()?.message).toBe('rollout stopped at a broken agent');
    expect(reporter.events.filter((event) => event.type === 'gate-failed')).toEqual([
      expect.objectContaining({
        gate: 'Cilium rollout',
        observed: 'pod cilium-x on k3s-dev-2: CrashLoopBackOff',
        stepId: '1-cilium',
      }),
    ]);
  });
});
