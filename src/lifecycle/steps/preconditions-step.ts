import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import type { Precondition } from '../preconditions/precondition.js';
import { type RepoFacts, readRepoFacts } from '../repo/read-repo-facts.js';

/**
 * Everything a plan needs to be true before it changes anything, checked against the infra repo as
 * the ops host has it. Every check runs and every failure is listed: one refusal tells the whole story.
 */
export function preconditionsStep(id: string, cluster: string, checks: readonly Precondition[]): Step {
  return {
    id,
    title: 'preconditions',
    target: `${cluster}: ${checks.map((check) => check.label).join(', ')}`,
    async run(ctx) {
      let repo: RepoFacts;
      try {
        repo = await readRepoFacts(ctx);
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `cannot read the infra repo: ${(error as Error).message}`,
          {
            cause: error,
            details: { failures: [(error as Error).message] },
          },
        );
      }
      const failures = (await Promise.all(checks.map((check) => check.check(ctx, repo)))).flat();
      for (const failure of failures) await ctx.progress(`✗ ${failure}`);
      if (failures.length > 0) {
        const s = failures.length > 1 ? 's' : '';
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `${failures.length} precondition${s} failed: ${failures.join('; ')}`,
          { details: { failures } },
        );
      }
      return {
        status: 'succeeded',
        summary: `${checks.length} checks passed: ${checks.map((c) => c.label).join(', ')}`,
      };
    },
  };
}
