import type { StepContext } from '../plan/step.js';
import type { SshTarget } from '../ports/remote-shell.js';
import { captureRemote } from './capture-remote.js';

/**
 * Whether the bot's own SSH login on a node can act as root: it is root, or its sudo asks for no
 * password (`sudo -n true`). A prod login's sudo wants the vaulted become password, which the bot
 * never holds: there root is the ops host's Ansible's to take, with become and the vault.
 */
export async function rootWithoutPassword(ctx: StepContext, target: SshTarget): Promise<boolean> {
  if (ctx.cluster.nodeSsh.user === 'root') return true;
  return (await captureRemote(ctx, target, ['sudo', '-n', 'true'])).exitCode === 0;
}
