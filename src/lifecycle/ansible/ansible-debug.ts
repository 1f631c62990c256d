import type { StepContext } from '../plan/step.js';
import { type Captured, captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { INVENTORY_ARGS } from './playbook-invocation.js';
import { repoAnsibleEnv } from './repo-ansible-env.js';

/**
 * An ad-hoc `ansible <pattern> -m debug` on the ops host, in the repo's ansible directory with its
 * ansible.cfg and hosts.ini: Ansible answers from its own inventory and vars, and (debug being an
 * action that runs on the controller) connects to no host. Every argument is one argv word.
 */
export async function ansibleDebug(
  ctx: StepContext,
  pattern: string,
  args: string,
  extraArgv: readonly string[] = [],
): Promise<Captured> {
  return captureRemote(
    ctx,
    opsTarget(ctx.world),
    ['ansible', ...INVENTORY_ARGS, pattern, '-m', 'ansible.builtin.debug', '-a', args, ...extraArgv],
    { cwd: repoPaths(ctx.world).ansible, env: repoAnsibleEnv(ctx.world) },
  );
}
