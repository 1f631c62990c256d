import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Plan } from '../plan/plan.js';
import type { ApprovalDesk } from '../ports/approval-desk.js';
import type { CheckpointStore, StepRecord } from '../ports/checkpoint-store.js';
import type { OperatorLog } from '../ports/operator-log.js';
import type { LifecycleEvent, PlanOutcome, StepFailure } from '../ports/reporter.js';
import { createRepoFileCache, type KeptRepoFiles } from '../repo/repo-file-cache.js';
import { passApproval } from './approval-gate.js';
import { carryOver, doneAt, type RerunSource } from './carry-over.js';
import { createStepContext, hostKeyPinsOf, type StepContextSources } from './create-step-context.js';
import { loadJobFacts } from './job-facts.js';
import { pruneDetachedFolders } from './prune-detached-folders.js';
import { redactingDeps } from './redacting-deps.js';

/** Where a job keeps the repo files it read, beside its steps' records. */
const REPO_FILES_KEY = '_repo-files';

export interface EngineDeps extends StepContextSources {
  readonly checkpoints: CheckpointStore;
  readonly approvals: ApprovalDesk;
  /** Scrubs secrets from everything the engine reports, stores or asks (playbooks print tokens too). */
  readonly redact?: ((text: string) => string) | undefined;
  /**
   * At the job's end (plan-finished, which settles it for good) its detached folders are removed,
   * and any other job's older than this (prune-detached-folders.ts). Absent: they stay.
   */
  readonly pruneDetachedOlderThanMinutes?: number | undefined;
  /** Where a prune that failed is told (it never fails the job). Absent: nobody hears of it. */
  readonly log?: OperatorLog | undefined;
  /** The failed job this one re-runs: the steps it did that may be carried over are skipped (carry-over.ts). */
  readonly rerunOf?: RerunSource | undefined;
}

export type EngineResult =
  | { readonly status: 'finished'; readonly outcome: PlanOutcome; readonly summary: string }
  | {
      readonly status: 'waiting';
      readonly stepId: string;
      readonly approvalId: string;
      readonly until: number;
    };

/**
 * Runs a plan from its first unfinished step. Each step is checkpointed before and after it runs,
 * so a job resumed after a crash continues where it was; a disruptive step first passes its
 * approval, and while an approval is pending the engine returns "waiting" instead of holding on.
 */
export async function runPlan(plan: Plan, input: EngineDeps): Promise<EngineResult> {
  const deps = redactingDeps(input);
  const { checkpoints, clock, reporter } = deps;
  const cluster = deps.world.clusters[plan.cluster];
  if (!cluster) throw new ClusterBotError('TARGET_UNKNOWN', `unknown cluster ${plan.cluster}`);
  const facts = await loadJobFacts(checkpoints);
  // Read once: a key kept by this run's own acceptance is pinned through its job fact meanwhile.
  const keptHostKeys = await hostKeyPinsOf(deps).read(cluster.name);
  const records = await Promise.all(plan.steps.map((step) => checkpoints.get(step.id)));
  const resumed = records.some((record) => record !== undefined);
  await reporter.emit({
    type: 'plan-started',
    resumed,
    steps: plan.steps.map((step) => ({
      id: step.id,
      title: step.title,
      target: step.target,
      commandLine: step.commandLine,
      disruptive: step.approval !== undefined,
      carryOver: step.carryOver === true,
    })),
  });

  // One for the whole run (and kept for the next): a file the preconditions read is the one the steps after them check.
  const repoFiles = createRepoFileCache(
    (await checkpoints.get(REPO_FILES_KEY))?.data as KeptRepoFiles | undefined,
    (files) => checkpoints.set(REPO_FILES_KEY, { status: 'succeeded', data: { ...files } }),
  );
  const carry = deps.rerunOf && carryOver(plan, deps.rerunOf, facts);
  if (carry && !resumed) await reporter.emit({ type: 'note', text: await carry.opening() });
  for (const [index, step] of plan.steps.entries()) {
    const record = records[index];
    if (record?.status === 'succeeded' || record?.status === 'skipped') continue;
    // Cancelled while parked or queued: end here, before asking for or running anything.
    if (deps.signal.aborted) return finish(deps, plan, index, 'cancelled', 'cancelled before this step');
    const run = { facts, keptHostKeys, repoFiles };
    const resume = { interrupted: record?.status === 'running', checkpoints };
    let ctx = createStepContext(deps, cluster, run, step, resume);

    let approvalId: string | undefined;
    try {
      const carried = record ? undefined : await carry?.take(step, ctx);
      if (carried) {
        const summary = `done in #${carried.doneIn}`;
        await transition(
          deps,
          step.id,
          { status: 'skipped', summary, data: { ...carried } },
          { type: 'step-finished', stepId: step.id, status: 'skipped', durationMs: 0, summary },
        );
        continue;
      }
      const verdict = await passApproval(step, ctx, deps.approvals, record, (id, until) =>
        reporter.emit({ type: 'step-waiting', stepId: step.id, approvalId: id, expiresAt: until }),
      );
      if (verdict.kind === 'wait') {
        return { status: 'waiting', stepId: step.id, approvalId: verdict.approvalId, until: verdict.until };
      }
      if (verdict.kind === 'end') return finish(deps, plan, index, verdict.outcome, verdict.summary);
      approvalId = verdict.approvalId;
      if (verdict.by) ctx = createStepContext(deps, cluster, run, step, resume, verdict.by);
    } catch (error) {
      return fail(deps, plan, index, clock.now(), error);
    }
    if (resume.interrupted && !step.approval && !step.detached) {
      await ctx.note(
        `${step.title} was interrupted (the worker stopped); running it again, it is safe to repeat.`,
      );
    }

    const startedAt = clock.now();
    await transition(
      deps,
      step.id,
      { status: 'running', startedAt, data: approvalId ? { approvalId } : undefined },
      { type: 'step-started', stepId: step.id },
    );
    try {
      if (deps.signal.aborted) throw new ClusterBotError('CANCELLED', 'cancelled');
      const result = await step.run(ctx);
      const finishedAt = clock.now();
      await transition(
        deps,
        step.id,
        {
          status: result.status,
          startedAt,
          finishedAt,
          summary: result.summary,
          data: doneAt(step, repoFiles, approvalId),
        },
        {
          type: 'step-finished',
          stepId: step.id,
          status: result.status,
          durationMs: finishedAt - startedAt,
          summary: result.summary,
        },
      );
    } catch (error) {
      return fail(deps, plan, index, startedAt, error, approvalId);
    }
  }
  const count = plan.steps.length;
  return finish(
    deps,
    plan,
    count,
    'succeeded',
    count === 1 ? 'its one step done' : `all ${count} steps done`,
  );
}

/**
 * A step's transition: its checkpoint and its event, handed over together so a store that batches
 * writes (the job layer's) sends them as one; the step goes on once both are done.
 */
async function transition(
  deps: EngineDeps,
  stepId: string,
  record: StepRecord,
  event: LifecycleEvent,
): Promise<void> {
  await Promise.all([deps.checkpoints.set(stepId, record), deps.reporter.emit(event)]);
}

async function fail(
  deps: EngineDeps,
  plan: Plan,
  index: number,
  startedAt: number,
  error: unknown,
  approvalId?: string,
): Promise<EngineResult> {
  const step = plan.steps[index]!;
  const failure = toFailure(error, deps.signal);
  const finishedAt = deps.clock.now();
  await transition(
    deps,
    step.id,
    {
      status: 'failed',
      startedAt,
      finishedAt,
      summary: failure.message,
      data: approvalId ? { approvalId } : undefined,
    },
    {
      type: 'step-finished',
      stepId: step.id,
      status: 'failed',
      durationMs: finishedAt - startedAt,
      summary: failure.message,
      failure,
    },
  );
  const outcome: PlanOutcome = failure.code === 'CANCELLED' ? 'cancelled' : 'failed';
  // A playbook's own message already starts with its name ("k3s.yml failed: ..."): say it once.
  const summary = failure.message.startsWith(`${step.title} `)
    ? failure.message
    : `${step.title} ${outcome}: ${failure.message}`;
  return finish(deps, plan, index + 1, outcome, summary, failure);
}

async function finish(
  deps: EngineDeps,
  plan: Plan,
  firstNotRun: number,
  outcome: PlanOutcome,
  summary: string,
  failure?: StepFailure,
): Promise<EngineResult> {
  for (const step of plan.steps.slice(firstNotRun)) {
    await deps.reporter.emit({
      type: 'step-finished',
      stepId: step.id,
      status: 'skipped',
      durationMs: 0,
      summary: 'not run',
    });
  }
  await deps.reporter.emit({ type: 'plan-finished', outcome, summary, failure });
  if (deps.pruneDetachedOlderThanMinutes !== undefined)
    await pruneDetachedFolders(deps, plan, deps.pruneDetachedOlderThanMinutes);
  // The caller logs and stores the summary too: it leaves redacted, as the event did.
  return { status: 'finished', outcome, summary: deps.redact?.(summary) ?? summary };
}

function toFailure(error: unknown, signal: AbortSignal): StepFailure {
  if (isClusterBotError(error)) return { code: error.code, message: error.message, details: error.details };
  if (signal.aborted) return { code: 'CANCELLED', message: 'cancelled' };
  return { code: 'INTERNAL', message: (error as Error)?.message ?? String(error) };
}
