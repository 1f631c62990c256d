import { isClusterBotError } from '../../errors.js';
import { ansibleEnv } from '../ansible/ansible-env.js';
import { createAnsibleOutputParser } from '../ansible/create-ansible-output-parser.js';
import { type PlaybookInvocation, playbookArgv } from '../ansible/playbook-invocation.js';
import type { StepContext } from '../plan/step.js';
import type { CheckPreview } from '../ports/approval-desk.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

const DIFF_EXCERPT_LINES = 40;

/**
 * `--check --diff` of the exact run to be approved: which tasks would change on which host, and a
 * short diff. Check mode cannot run every task; when it fails the preview says why, and the
 * approval request goes out anyway.
 */
export async function previewPlaybook(
  ctx: StepContext,
  invocation: PlaybookInvocation,
): Promise<CheckPreview> {
  const parser = createAnsibleOutputParser();
  const changedTasks: Record<string, string[]> = {};
  const diff: string[] = [];
  const collect = (events: ReturnType<typeof parser.push>) => {
    for (const event of events) {
      if (event.type !== 'host-result' || event.status !== 'changed') continue;
      const tasks = changedTasks[event.host] ?? [];
      tasks.push(event.task);
      changedTasks[event.host] = tasks;
      for (const line of event.diff ?? []) if (diff.length < DIFF_EXCERPT_LINES) diff.push(line);
    }
  };
  try {
    const result = await ctx.shell.exec(opsTarget(ctx.world), {
      argv: playbookArgv(invocation, 'check'),
      cwd: repoPaths(ctx.world).ansible,
      env: await ansibleEnv(ctx),
      timeoutMs: ctx.cluster.timeouts.playbook,
      signal: ctx.signal,
      onLine: (line) => collect(parser.push(line)),
    });
    collect(parser.flush());
    const outcome = parser.result(result.exitCode);
    const failure = outcome.ok
      ? undefined
      : outcome.failures
          .map((f) => `${f.host}: ${f.task}: ${f.msg}`)
          .slice(-3)
          .join(' | ') ||
        outcome.errors[0] ||
        `check mode exited ${result.exitCode}`;
    return { ran: outcome.ok, failure, changedTasks, diffExcerpt: diff.join('\n') };
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return { ran: false, failure: (error as Error).message, changedTasks, diffExcerpt: diff.join('\n') };
  }
}
