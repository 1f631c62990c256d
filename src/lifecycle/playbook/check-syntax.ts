import { ClusterBotError } from '../../errors.js';
import { askAnsible } from '../ansible/ask-ansible.js';
import type { PlaybookInvocation } from '../ansible/playbook-invocation.js';
import type { StepContext } from '../plan/step.js';

/** `ansible-playbook --syntax-check` with the same argv: a broken playbook is refused before anyone is asked. */
export async function checkSyntax(ctx: StepContext, invocation: PlaybookInvocation): Promise<void> {
  const checked = await askAnsible(ctx, invocation, '--syntax-check');
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
