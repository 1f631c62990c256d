import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemote } from './capture-remote.js';
import { ANSIBLE_ENV, type PlaybookInvocation, playbookArgv } from './playbook-invocation.js';
import { repoPaths } from './repo-paths.js';

/** `ansible-playbook --syntax-check` with the same argv: a broken playbook is refused before anyone is asked. */
export async function checkSyntax(ctx: StepContext, invocation: PlaybookInvocation): Promise<void> {
  const checked = await captureRemote(
    ctx,
    opsTarget(ctx.world),
    [...playbookArgv(invocation), '--syntax-check'],
    {
      cwd: repoPaths(ctx.world).ansible,
      env: ANSIBLE_ENV,
    },
  );
  if (checked.exitCode === 0) return;
  const error = checked.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('[WARNING]'))
    .slice(0, 4)
    .join(' ');
  throw new ClusterBotError(
    'PRECONDITION_FAILED',
    `${invocation.playbook} fails ansible-playbook --syntax-check: ${error || `exit ${checked.exitCode}`}`,
    { details: { playbook: invocation.playbook, exitCode: checked.exitCode } },
  );
}
