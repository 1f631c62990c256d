import { ClusterBotError } from '../../errors.js';
import { INVENTORY_ARGS } from './playbook-invocation.js';

/** Ansible templates module args: a word holding one of these would be run as Jinja, not passed on. */
const JINJA = /\{\{|\{%|\{#/;

/**
 * The ops host's Ansible running argv as root on one inventory host, with become (the password
 * from the vault): `ansible -i inventory/hosts.ini <host> -b -m command -a '{"argv": [...]}'`. The command module's argv
 * form runs the words as they are, with no shell and no splitting; `strip_empty_ends: false` keeps
 * stdout's last newline, so stderr starts on its own line in the output.
 */
export function ansibleBecomeArgv(host: string, argv: readonly string[]): string[] {
  const templated = argv.find((word) => JINJA.test(word));
  if (templated !== undefined) {
    throw new ClusterBotError(
      'COMMAND_INVALID',
      `${JSON.stringify(templated.slice(0, 80))} cannot run on ${host} through Ansible: Ansible would template it`,
      { details: { host, argument: templated.slice(0, 80) } },
    );
  }
  const args = JSON.stringify({ argv, strip_empty_ends: false });
  return ['ansible', ...INVENTORY_ARGS, host, '-b', '-m', 'command', '-a', args];
}
