import { describeCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';
import type { JobFacts, Step, StepContext } from '../plan/step.js';
import type { StepRecord } from '../ports/checkpoint-store.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import type { RepoFileCache } from '../repo/repo-file-cache.js';

/** The job a re-run repeats: its number and its steps' checkpoints as it left them. */
export interface RerunSource {
  readonly number: number;
  readonly records: Readonly<Record<string, StepRecord>>;
}

/** A step a re-run may carry over, where and at what it was done (kept in its checkpoint, so a re-run of a re-run knows too). */
export interface DoneStep {
  readonly doneIn: number;
  /** The commit its run had read (a key of its own: the engine's other records keep a `commit` too). */
  readonly ranAt: string;
  readonly commandLine?: string | undefined;
}

/** Until the job ends, once a re-run found a reason to run every step: a resumed run keeps to it. */
const RUNS_EVERYTHING_FACT = 'rerun:runs-everything';

/**
 * The steps a re-run may carry over: only those whose plan says so (Step.carryOver). Every other
 * step runs again: a check, gate, cordon, Flux suspend or host key's acceptance because what it
 * found or set may no longer hold and its facts belong to the job that ran it; a step that changed
 * nodes because skipping it can be wrong (cilium.yml would skip the Flux suspension its group's
 * first step makes, a snapshot would stay the original's, a rebuilt VM may have been re-created).
 */
export const carriable = (step: Step): boolean => step.carryOver === true;

/**
 * A succeeded step's checkpoint data: the approval it ran under, and for a step a re-run may carry
 * over what that re-run compares, the commit its run had read and its exact command line.
 */
export function doneAt(
  step: Step,
  repoFiles: RepoFileCache,
  approvalId: string | undefined,
): Record<string, unknown> | undefined {
  const ranAt = carriable(step) ? repoFiles.commit() : undefined;
  if (!ranAt) return approvalId ? { approvalId } : undefined;
  return { ...(approvalId && { approvalId }), ranAt, commandLine: step.commandLine };
}

/** The original's steps that recorded where they were done, by step id. */
export function doneSteps(source: RerunSource): ReadonlyMap<string, DoneStep> {
  const done = new Map<string, DoneStep>();
  for (const [id, record] of Object.entries(source.records)) {
    const { ranAt, commandLine, doneIn } = record.data ?? {};
    if (typeof ranAt !== 'string') continue;
    const line = typeof commandLine === 'string' ? commandLine : undefined;
    if (record.status === 'succeeded') done.set(id, { doneIn: source.number, ranAt, commandLine: line });
    // Carried over by that job in turn: done where it says.
    else if (record.status === 'skipped' && typeof doneIn === 'number')
      done.set(id, { doneIn, ranAt, commandLine: line });
  }
  return done;
}

/**
 * Why the plan built now is not the one the original ran, so nothing it did may be carried over
 * (every reason; undefined when none): a step it did is gone, or its command line differs (the
 * config changed between). A step no longer carriable simply runs again.
 */
export function planChangedSince(
  steps: readonly Step[],
  number: number,
  done: ReadonlyMap<string, DoneStep>,
): string | undefined {
  const reasons: string[] = [];
  for (const [id, step] of done) {
    const now = steps.find((candidate) => candidate.id === id);
    if (!now) reasons.push(`the plan no longer has step ${id} of #${number}`);
    else if (!carriable(now)) continue;
    else if (now.commandLine !== step.commandLine)
      reasons.push(`${now.title}'s command line changed since #${number}`);
  }
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

export interface CarryOver {
  /** Said at a re-run's first start: what it will skip, or why it runs every step. */
  opening(): Promise<string>;
  /** Where this step was done, if the re-run may skip it now (HEAD read again for each). */
  take(step: Step, ctx: StepContext): Promise<DoneStep | undefined>;
}

/**
 * A re-run's decision, step by step: a carriable step done in the original is skipped only while the infra repo is at the commit it ran at and its command line is the same. The first
 * difference is said in the thread and holds for the rest of the job (kept as a job fact): every
 * step from there on runs, and since no step was skipped before the first carriable one, a commit
 * that moved before the re-run means it runs from the beginning. A plan with no carriable step
 * (cilium, upgrade, restore, reprovision, …) runs whole, and says so.
 */
export function carryOver(plan: Plan, source: RerunSource, facts: JobFacts): CarryOver {
  const { steps } = plan;
  const recorded = doneSteps(source);
  const changed = planChangedSince(steps, source.number, recorded);
  // A step carriable in the original's plan but not now (an older bot's job) runs again.
  const done = new Map(
    [...recorded].filter(([id]) => steps.some((step) => step.id === id && carriable(step))),
  );
  const off = async (why: string) => {
    await facts.set(RUNS_EVERYTHING_FACT, why);
    return `Re-run of #${source.number}: ${why}, so every step runs again.`;
  };
  return {
    async opening() {
      if (!steps.some(carriable)) return wholeRun(plan, source.number);
      if (changed) return off(changed);
      if (done.size === 0) return off(`#${source.number} finished no step a re-run may skip`);
      const skippable = steps.filter((step) => done.has(step.id)).map((step) => step.title);
      return (
        `Re-run of #${source.number}: every other step runs again, every approval is asked anew; ` +
        `${skippable.join(', ')} (done in #${source.number}) ${skippable.length === 1 ? 'is' : 'are'} skipped while the infra repo is still at the commit ${skippable.length === 1 ? 'it' : 'they'} ran at.`
      );
    },
    async take(step, ctx) {
      const was = done.get(step.id);
      if (!was || facts.get(RUNS_EVERYTHING_FACT) !== undefined) return undefined;
      const head = await readRepoCommit(ctx);
      if (head === was.ranAt) return was;
      await ctx.note(
        await off(
          `the infra repo moved from ${was.ranAt.slice(0, 12)} (where ${step.title} ran in #${was.doneIn}) to ${head.slice(0, 12)}`,
        ),
      );
      return undefined;
    },
  };
}

/** What a re-run of a plan with no step to carry over says at its start. */
function wholeRun(plan: Plan, number: number): string {
  return (
    `Re-run \`/cluster ${describeCommand(plan.command)}\`: nothing of #${number} is skipped: ` +
    `${plan.command.verb} always runs whole, every step runs again and every approval is asked anew.`
  );
}
