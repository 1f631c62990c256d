import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import type { RerunSource } from '../../src/lifecycle/engine/carry-over.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { readRepoText } from '../../src/lifecycle/repo/read-repo-text.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = 'b'.repeat(40);

/**
 * A plan shaped as `up` (or, with `whole`, as a verb whose plan carries nothing over: `cilium`,
 * `upgrade`, `restore`): a read-only preconditions step, two playbooks that change nodes (detached,
 * as playbookStep makes them, and carriable as `up` makes them), a read-only check between them.
 * Each step reads HEAD as a playbook step does (through the repo), and records that it ran;
 * `failing` names steps that fail.
 */
function plan(
  ran: string[],
  failing: ReadonlySet<string>,
  baselineLine = 'ansible-playbook node-baseline.yml',
  whole?: Plan['command'],
): Plan {
  const step = (id: string, title: string, commandLine?: string): Step => ({
    id,
    title,
    target: 'dev: all nodes',
    commandLine,
    detached: commandLine !== undefined,
    carryOver: commandLine !== undefined && !whole,
    async run(ctx) {
      // As the real steps read the repo: through the job's file cache, which keeps its own record.
      await readRepoText(ctx, 'infra/ansible/inventory/hosts.ini');
      ran.push(id);
      if (failing.has(id)) throw new ClusterBotError('PLAYBOOK_FAILED', `${title} failed: k3s-dev-2: boom`);
      return { status: 'succeeded', summary: 'ok' };
    },
  });
  return {
    command: whole ?? { verb: 'up', cluster: 'dev' },
    cluster: 'dev',
    steps: [
      step('1-preconditions', 'preconditions'),
      step('2-node-baseline', 'node-baseline.yml', baselineLine),
      step('3-check', 'kubeconfig check'),
      step('4-k3s', 'k3s.yml', 'ansible-playbook k3s.yml'),
    ],
  };
}

/** One job of the plan at the given HEAD: what ran, what it reported, its checkpoints as a re-run reads them. */
async function job(
  number: number,
  options: {
    head: string;
    failing?: string[];
    rerunOf?: RerunSource;
    baselineLine?: string;
    whole?: Plan['command'];
  },
) {
  const ran: string[] = [];
  const shell = createScriptedShell((call) =>
    call.argv[0] === 'git' ? { stdout: [options.head] } : undefined,
  );
  const clock = createInstantClock();
  const checkpoints = createMemoryCheckpointStore();
  const reporter = createRecordingReporter();
  const built = plan(ran, new Set(options.failing ?? []), options.baselineLine, options.whole);
  const result = await runPlan(built, {
    jobId: `job-${number}`,
    world,
    shell,
    kube: createMemoryKube().kube,
    clock,
    checkpoints,
    approvals: createMemoryApprovalDesk({ now: clock.now }).desk,
    reporter,
    signal: new AbortController().signal,
    rerunOf: options.rerunOf,
  });
  const source: RerunSource = { number, records: Object.fromEntries(checkpoints.records) };
  const notes = reporter.events.flatMap((event) => (event.type === 'note' ? [event.text] : []));
  const skipped = reporter
    .finishedSteps()
    .filter((event) => event.status === 'skipped')
    .map((event) => `${event.stepId}: ${event.summary}`);
  return { result, ran, source, notes, skipped, checkpoints };
}

describe('a re-run skips what the failed job did to the nodes only at the same commit and command lines', () => {
  it('same commit, same command lines: the preconditions and checks run again, the playbook that succeeded is skipped as done in #1', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    expect(first.result).toMatchObject({ status: 'finished', outcome: 'failed' });

    const rerun = await job(2, { head: COMMIT_A, rerunOf: first.source });

    expect(rerun.result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(rerun.ran).toEqual(['1-preconditions', '3-check', '4-k3s']);
    expect(rerun.skipped).toEqual(['2-node-baseline: done in #1']);
    expect(rerun.notes[0]).toBe(
      'Re-run of #1: every other step runs again, every approval is asked anew; ' +
        'node-baseline.yml (done in #1) is skipped while the infra repo is still at the commit it ran at.',
    );
    // Kept in its checkpoint: a re-run of this job knows where the step was done.
    expect(rerun.checkpoints.records.get('2-node-baseline')).toMatchObject({
      status: 'skipped',
      data: { doneIn: 1, ranAt: COMMIT_A, commandLine: 'ansible-playbook node-baseline.yml' },
    });
  });

  it('a commit that moved since the failed job: every step runs again, from the beginning, and the thread says why', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    const rerun = await job(2, { head: COMMIT_B, rerunOf: first.source });

    expect(rerun.ran).toEqual(['1-preconditions', '2-node-baseline', '3-check', '4-k3s']);
    expect(rerun.skipped).toEqual([]);
    expect(rerun.notes).toContain(
      `Re-run of #1: the infra repo moved from ${COMMIT_A.slice(0, 12)} (where node-baseline.yml ran in #1) to ${COMMIT_B.slice(0, 12)}, so every step runs again.`,
    );
  });

  it('a command line the config changed since: nothing is carried over, said before the first step', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    const rerun = await job(2, {
      head: COMMIT_A,
      rerunOf: first.source,
      baselineLine: 'ansible-playbook node-baseline.yml -e k3s_hosts=k3s_prod',
    });

    expect(rerun.ran).toEqual(['1-preconditions', '2-node-baseline', '3-check', '4-k3s']);
    expect(rerun.notes[0]).toBe(
      "Re-run of #1: node-baseline.yml's command line changed since #1, so every step runs again.",
    );
  });

  it('a re-run of a re-run skips what the first job did, still naming it', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    const second = await job(2, { head: COMMIT_A, failing: ['4-k3s'], rerunOf: first.source });
    expect(second.skipped).toEqual(['2-node-baseline: done in #1']);

    const third = await job(3, { head: COMMIT_A, rerunOf: second.source });
    expect(third.ran).toEqual(['1-preconditions', '3-check', '4-k3s']);
    expect(third.skipped).toEqual(['2-node-baseline: done in #1']);
  });

  it('a failed job whose playbooks recorded no commit (before re-runs existed) carries nothing over, and says so', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    const records = Object.fromEntries(
      Object.entries(first.source.records).map(([id, record]) => [id, { ...record, data: undefined }]),
    );
    const rerun = await job(2, { head: COMMIT_A, rerunOf: { number: 1, records } });

    expect(rerun.ran).toEqual(['1-preconditions', '2-node-baseline', '3-check', '4-k3s']);
    expect(rerun.notes[0]).toBe(
      'Re-run of #1: #1 finished no step a re-run may skip, so every step runs again.',
    );
  });

  it('a step that failed in the original, or a read-only step that succeeded, is never skipped', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['2-node-baseline'] });
    const rerun = await job(2, { head: COMMIT_A, rerunOf: first.source });
    expect(rerun.ran).toEqual(['1-preconditions', '2-node-baseline', '3-check', '4-k3s']);
    expect(rerun.skipped).toEqual([]);
  });
});

describe('only the steps a plan says a re-run may skip are skipped', () => {
  function planOf(text: string) {
    const parsed = parseLifecycleCommand(text, world);
    if (!parsed.ok) throw new Error(parsed.error);
    return buildPlan(parsed.command, world);
  }
  const carried = (text: string) =>
    planOf(text)
      .steps.filter((step) => step.carryOver === true)
      .map((step) => step.title);

  it('up carries its idempotent playbooks, never cilium.yml under the Flux suspension; packages its baseline', () => {
    expect(carried('up dev')).toEqual([
      'node-baseline.yml',
      'k3s.yml',
      'flux-bootstrap.yml',
      'kube-vip.yml',
      'vpn.egress.gateway.yml',
    ]);
    // Prod: the prod init too; no VPN gateway there.
    expect(carried('up prod')).toEqual([
      'node-baseline.yml',
      'k3s.yml',
      'flux-bootstrap.yml',
      'kube-vip.yml',
    ]);
    expect(carried('packages k3s-dev-1')).toEqual(['node-baseline.yml']);
    // cilium.yml changes nodes (detached) all the same: detached is not what decides.
    expect(planOf('up dev').steps.find((step) => step.title === 'cilium.yml')).toMatchObject({
      detached: true,
    });
  });

  it('cilium, upgrade, restore and reprovision carry nothing: a rebuild, a snapshot, a reset or a Flux suspension always runs again', () => {
    for (const text of [
      'cilium dev',
      'cilium dev --rollback',
      'upgrade dev',
      'restore dev cluster-bot-job-3-k3s-dev-1-1765000000',
      'reprovision k3s-dev-3',
    ]) {
      expect({ text, carried: carried(text) }).toEqual({ text, carried: [] });
    }
  });

  it.each([
    [{ verb: 'cilium', cluster: 'dev' }, 'cilium dev', 'cilium'],
    [{ verb: 'upgrade', cluster: 'dev' }, 'upgrade dev', 'upgrade'],
  ] as const)(
    'a re-run of %j whose playbooks succeeded in #1 runs every step again and says so first',
    async (command, text, verb) => {
      const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'], whole: command });
      expect(first.ran).toContain('2-node-baseline');

      const rerun = await job(2, { head: COMMIT_A, rerunOf: first.source, whole: command });

      expect(rerun.result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(rerun.ran).toEqual(['1-preconditions', '2-node-baseline', '3-check', '4-k3s']);
      expect(rerun.skipped).toEqual([]);
      expect(rerun.notes[0]).toBe(
        `Re-run \`/cluster ${text}\`: nothing of #1 is skipped: ${verb} always runs whole, every step runs again and every approval is asked anew.`,
      );
    },
  );

  it('a step done in #1 that the plan no longer lets a re-run skip (an older bot carried it) runs again; the others still carry', async () => {
    const first = await job(1, { head: COMMIT_A, failing: ['4-k3s'] });
    // As the bot before carry-over was opt-in recorded a step it now runs again (cilium.yml): where it ran.
    const records = {
      ...first.source.records,
      '3-check': { status: 'succeeded', data: { ranAt: COMMIT_A } },
    } as RerunSource['records'];
    const rerun = await job(2, { head: COMMIT_A, rerunOf: { number: 1, records } });
    expect(rerun.ran).toEqual(['1-preconditions', '3-check', '4-k3s']);
    expect(rerun.skipped).toEqual(['2-node-baseline: done in #1']);
  });
});
