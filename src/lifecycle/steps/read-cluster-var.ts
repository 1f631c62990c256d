import { parse as parseYaml } from 'yaml';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemote } from './capture-remote.js';
import { repoPaths } from './repo-paths.js';

/**
 * A role variable as the cluster resolves it from the repo's group_vars: `group_vars/all.yml`, then
 * the cluster's own group (the `k3s_hosts` it runs with, e.g. `group_vars/k3s_prod/vars.yml`), whose
 * answer wins as Ansible's group precedence has it. Undefined when neither file sets it.
 */
export async function readClusterVar(
  ctx: StepContext,
  name: string,
): Promise<{ value: string; file: string } | undefined> {
  const { ansible } = repoPaths(ctx.world);
  const group = ctx.cluster.extraVars.k3s_hosts;
  const files = ['group_vars/all.yml', ...(group ? [`group_vars/${group}/vars.yml`] : [])];
  let found: { value: string; file: string } | undefined;
  for (const file of files) {
    const read = await captureRemote(ctx, opsTarget(ctx.world), ['cat', '--', `${ansible}/${file}`]);
    if (read.exitCode !== 0) continue;
    let vars: unknown;
    try {
      vars = parseYaml(read.stdout);
    } catch (cause) {
      throw new ClusterBotError('PRECONDITION_FAILED', `infra/ansible/${file} is not valid YAML`, { cause });
    }
    const value = (vars as Record<string, unknown> | null)?.[name];
    if (value !== undefined && value !== null)
      found = { value: String(value), file: `infra/ansible/${file}` };
  }
  return found;
}
