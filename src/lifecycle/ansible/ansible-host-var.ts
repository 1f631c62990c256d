import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { ansibleDebug } from './ansible-debug.js';
import { extraVarArgs } from './playbook-invocation.js';

/** What `debug var=` prints for a variable no inventory source (host_vars, hosts.ini, group_vars) sets. */
const NOT_DEFINED = 'VARIABLE IS NOT DEFINED!';

/** One host's `host | SUCCESS => {` line; its JSON runs to the next line that is a lone `}`. */
const HOST_LINE = /^(\S+) \| [A-Z!]+ => \{$/;

/**
 * A variable as Ansible resolves it for each host, from everything the inventory layers (host_vars,
 * hosts.ini's inline vars, every group the host is in with its children) plus the given extra vars:
 * what a play on those hosts sees, short of its roles' defaults. A host maps to undefined when
 * nothing there sets the variable; a host Ansible did not answer for is absent from the map.
 */
export async function ansibleHostVar(
  ctx: StepContext,
  hosts: readonly string[],
  name: string,
  extraVars: Readonly<Record<string, string>>,
): Promise<ReadonlyMap<string, string | undefined>> {
  const { exitCode, stdout, stderr } = await ansibleDebug(
    ctx,
    hosts.join(','),
    `var=${name}`,
    extraVarArgs(extraVars),
  );
  if (exitCode !== 0) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `Ansible could not resolve ${name} for ${hosts.join(', ')} (exit ${exitCode}): ${stderr.trim().split('\n').at(-1) ?? ''}`,
    );
  }
  const answers = new Map<string, string | undefined>();
  const lines = stdout.split('\n');
  for (const [i, line] of lines.entries()) {
    const host = HOST_LINE.exec(line)?.[1];
    if (!host || !hosts.includes(host)) continue;
    const end = lines.indexOf('}', i + 1);
    const value = parseValue(
      lines
        .slice(i, end + 1)
        .join('\n')
        .slice(line.length - 1),
      name,
    );
    // An answer that is not the variable (a failure, unreadable JSON) leaves the host unanswered.
    if (value !== undefined) answers.set(host, value === NOT_DEFINED ? undefined : value);
  }
  return answers;
}

function parseValue(json: string, name: string): string | undefined {
  try {
    const value = (JSON.parse(json) as Record<string, unknown>)[name];
    return value === undefined || typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return undefined;
  }
}
