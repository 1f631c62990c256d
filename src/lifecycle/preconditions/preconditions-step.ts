import { ClusterBotError, isClusterBotError } from '../../errors.js';
import { ansibleConfigProblem } from '../ansible/ansible-config-problem.js';
import type { Step, StepContext } from '../plan/step.js';
import { readRepoFacts } from '../repo/read-repo-facts.js';
import { ansibleConfigPinned } from './ansible-config-pinned.js';
import type { HostPrecondition, Precondition } from './precondition.js';

/**
 * Everything a plan needs to be true before it changes anything, checked against the infra repo as
 * the ops host has it. Every check runs and every failure is listed: one refusal tells the whole story.
 * Ansible answers some of them and runs the plays, so each plan first checks that Ansible reads the
 * repo's ansible.cfg.
 */
export function preconditionsStep(id: string, cluster: string, planChecks: readonly Precondition[]): Step {
  const checks = [ansibleConfigPinned, ...planChecks];
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
export async function requirePreconditions(
  ctx: StepContext,
  checks: readonly (Precondition | HostPrecondition)[],
): Promise<void> {
  if (checks.length === 0) return;
  await refuseWith(ctx, await failuresOf(ctx, checks));
}

/**
 * Refuses when Ansible on the ops host would not run with the repo's ansible.cfg: checked right
 * before each playbook and at its approval, reading nothing else of the repo.
 */
export async function requireRepoAnsibleConfig(ctx: StepContext): Promise<void> {
  const problem = await ansibleConfigProblem(ctx);
  await refuseWith(ctx, problem === undefined ? [] : [problem]);
}

async function refuseWith(ctx: StepContext, failures: readonly string[]): Promise<void> {
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

async function failuresOf(
  ctx: StepContext,
  checks: readonly (Precondition | HostPrecondition)[],
): Promise<string[]> {
  // Every promise is handled the moment it exists: a host check failing while the repo is still
  // being read must not go unhandled (it would end the process).
  const repoRead = settled(readRepoFacts(ctx));
  const answers = checks.map((check) =>
    settled(
      'readsRepo' in check
        ? check.check(ctx)
        : repoRead.then((read) => ('value' in read ? check.check(ctx, read.value) : [])),
    ),
  );
  const [read, ...results] = await Promise.all([repoRead, ...answers]);
  const cancelled = [read, ...results].find(
    (result) => 'error' in result && isClusterBotError(result.error, 'CANCELLED'),
  );
  if (cancelled && 'error' in cancelled) throw cancelled.error;
  if ('error' in read) return [`cannot read the infra repo: ${(read.error as Error).message}`];
  return results.flatMap((result) => {
    if ('error' in result) throw result.error;
    return result.value;
  });
}

function settled<T>(promise: Promise<T>): Promise<{ readonly value: T } | { readonly error: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}
