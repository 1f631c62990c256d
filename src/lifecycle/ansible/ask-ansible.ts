import type { StepContext } from '../plan/step.js';
import { type Captured, captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { ansibleEnv } from './ansible-env.js';
import { type PlaybookInvocation, playbookArgv } from './playbook-invocation.js';

/** The exact argv of a playbook step plus one flag that makes ansible answer without running anything. */
export async function askAnsible(
  ctx: StepContext,
  invocation: PlaybookInvocation,
  flag: '--list-hosts' | '--list-tasks' | '--syntax-check',
): Promise<Captured> {
  return captureRemote(ctx, opsTarget(ctx.world), [...playbookArgv(invocation), flag], {
    cwd: repoPaths(ctx.world).ansible,
    env: await ansibleEnv(ctx),
  });
}
