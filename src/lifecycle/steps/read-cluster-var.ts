import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { readGroupVars } from '../repo/read-repo-facts.js';
import { renderVar } from '../repo/repo-vars.js';

/**
 * A role variable as the cluster resolves it from the repo's group_vars (its own group's answer
 * wins over all.yml's, as in Ansible), with its plain `{{ var }}` references rendered. Undefined
 * when neither file sets it as a string the bot can resolve.
 */
export async function readClusterVar(
  ctx: StepContext,
  name: string,
): Promise<{ value: string; file: string } | undefined> {
  let vars: Awaited<ReturnType<typeof readGroupVars>>;
  try {
    vars = await readGroupVars(ctx);
  } catch (cause) {
    throw new ClusterBotError('PRECONDITION_FAILED', (cause as Error).message, { cause });
  }
  const value = renderVar(vars, name);
  const entry = vars.get(name);
  return value === undefined || !entry ? undefined : { value, file: entry.file };
}
