import { ClusterBotError } from '../../errors.js';
import { clusterServers } from '../cluster-servers.js';
import type { StepContext } from '../plan/step.js';
import { ansibleMagicVars } from '../repo/ansible-magic-vars.js';
import { readGroupVars, roleDefaultsFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { layerVars, renderVar } from '../repo/repo-vars.js';
import { renderWithAnsible } from './render-with-ansible.js';

/** A var's rendered value for the cluster, and the repo file whose setting won. */
export interface ClusterVar {
  readonly value: string;
  readonly file: string;
}

export interface ClusterVarOptions {
  /** The role whose defaults sit under group_vars (and whose `role_path` the value may use). */
  readonly role?: string | undefined;
}

/**
 * A role variable as the cluster resolves it: the role's defaults (when a role is named), then
 * group_vars/all.yml, then the cluster group's vars.yml, the later winning as in Ansible; rendered
 * with Ansible's magic variables, `| default(…)` and references to other vars. What the bot cannot
 * render itself, Ansible renders for one of the cluster's servers on the ops host: no guess either
 * way. Undefined when no file sets it as a string; a template that neither can render is refused,
 * naming the file and Ansible's reason.
 */
export async function readClusterVar(
  ctx: StepContext,
  name: string,
  options: ClusterVarOptions = {},
): Promise<ClusterVar | undefined> {
  const refuse = (message: string, cause?: unknown): never => {
    throw new ClusterBotError('PRECONDITION_FAILED', message, { cause, details: { variable: name } });
  };
  let vars: Awaited<ReturnType<typeof readGroupVars>> = new Map();
  try {
    const defaultsFile = options.role ? roleDefaultsFile(options.role) : undefined;
    const [defaults, groupVars] = await Promise.all([
      defaultsFile ? readRepoText(ctx, defaultsFile) : undefined,
      readGroupVars(ctx),
    ]);
    vars = new Map([...layerVars([{ file: defaultsFile ?? '', text: defaults }]), ...groupVars]);
  } catch (cause) {
    refuse((cause as Error).message, cause);
  }
  const entry = vars.get(name);
  if (typeof entry?.value !== 'string') return undefined;
  const magic = ansibleMagicVars(ctx.world, options.role);
  const value = renderVar(vars, name, magic);
  if (value !== undefined) return { value, file: entry.file };
  const host = clusterServers(ctx.cluster)[0] ?? ctx.cluster.nodes[0]?.name;
  if (!host) return refuse(`${name} in ${entry.file} (${entry.value}) needs a host to render for`);
  const rendered = await renderWithAnsible(ctx, host, entry.value, magic);
  if ('value' in rendered) return { value: rendered.value, file: entry.file };
  return refuse(
    `${name} in ${entry.file} (${entry.value}) is a template neither the bot nor Ansible (for ${host}) can render: ${rendered.failure}`,
  );
}
