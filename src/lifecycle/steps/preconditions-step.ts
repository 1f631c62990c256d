import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import type { Precondition } from '../preconditions/precondition.js';
import { type RepoFacts, readRepoFacts } from '../repo/read-repo-facts.js';

/**
 * Everything a plan needs to be true before it changes anything, checked against the infra repo as
 * the ops host has it. Every check runs and every failure is listed: one refusal tells the whole story.
 */
export function preconditionsStep(id: string, cluster: string, checks: readonly Precondition[]): Step {
  const labels = checks.map((check) => check.label).join(', ');
  return {
    id,
    title: 'preconditions',
    target: `${cluster}: ${labels}`,
    check: (ctx) => failuresOf(ctx, checks),
    async run(ctx) {
      await requirePreconditions(ctx, checks);
      return { status: 'succeeded', summary: `${checks.length} checks passed: ${labels}` };
    },
  };
}

/** Runs the checks now and refuses with every failure; each is also shown as progress. */
export async function requirePreconditions(ctx: StepContext, checks: readonly Precondition[]): Promise<void> {
  if (checks.length === 0) return;
  const failures = await failuresOf(ctx, checks);
  for (const failure of failures) await ctx.progress(`✗ ${failure}`);
  if (failures.length > 0) {
    const s = failures.length > 1 ? 's' : '';
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `${failures.length} precondition${s} failed: ${failures.join('; ')}`,
      {
        details: { failures },
      },
    );
  }
}

async function failuresOf(ctx: StepContext, checks: readonly Precondition[]): Promise<string[]> {
  let repo: RepoFacts;
  try {
    repo = await readRepoFacts(ctx);
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return [`cannot read the infra repo: ${(error as Error).message}`];
  }
  return (await Promise.all(checks.map((check) => check.check(ctx, repo)))).flat();
}
