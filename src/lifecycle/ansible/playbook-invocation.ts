import { ANSIBLE_INVENTORY } from '../repo/read-repo-facts.js';

/**
 * Given to every ansible and ansible-playbook run: the inventory the bot's checks read (founder,
 * servers, addresses), never whichever one an ansible.cfg names.
 */
export const INVENTORY_ARGS: readonly string[] = ['-i', ANSIBLE_INVENTORY];

export interface PlaybookInvocation {
  /** File name under playbooks/, e.g. `k3s.yml`. */
  readonly playbook: string;
  readonly extraVars: Readonly<Record<string, string>>;
  readonly limit?: string | undefined;
  readonly tags?: string | undefined;
}

/** ansible-playbook's argv: the inventory, then one `-e key=value` per extra var, in a stable order. */
export function playbookArgv(invocation: PlaybookInvocation, mode: 'run' | 'check' = 'run'): string[] {
  const argv = ['ansible-playbook', ...INVENTORY_ARGS, `playbooks/${invocation.playbook}`];
  argv.push(...extraVarArgs(invocation.extraVars));
  if (invocation.limit) argv.push('--limit', invocation.limit);
  if (invocation.tags) argv.push('--tags', invocation.tags);
  if (mode === 'check') argv.push('--check', '--diff');
  return argv;
}

/** Plain, parseable output regardless of the ops host's ansible.cfg. */
export const ANSIBLE_ENV: Readonly<Record<string, string>> = {
  ANSIBLE_NOCOLOR: '1',
  ANSIBLE_FORCE_COLOR: '0',
  ANSIBLE_STDOUT_CALLBACK: 'default',
  ANSIBLE_RETRY_FILES_ENABLED: '0',
  PYTHONUNBUFFERED: '1',
};

/** One `-e key=value` per extra var, in a stable order: as every ansible run of the cluster gets them. */
export function extraVarArgs(extraVars: Readonly<Record<string, string>>): string[] {
  return Object.entries(extraVars).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
}
