import type { StepContext } from '../plan/step.js';
import type { RepoFacts } from '../repo/read-repo-facts.js';

/**
 * One rule checked before a plan changes anything. It reads (never writes) and answers every
 * problem it finds, in words that name the file or node involved; none is success.
 */
export interface Precondition {
  /** Shown in the plan: what is checked, in a few words. */
  readonly label: string;
  check(ctx: StepContext, repo: RepoFacts): Promise<readonly string[]>;
}

/**
 * A rule that needs none of the repo's facts (it may read HEAD, or a file of its own when it fails):
 * it starts at once, beside the reading of the repo's files.
 */
export interface HostPrecondition {
  readonly label: string;
  readonly readsRepo: false;
  check(ctx: StepContext): Promise<readonly string[]>;
}
