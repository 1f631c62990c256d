import { ClusterBotError } from '../../errors.js';
import { ansibleEnv } from '../ansible/ansible-env.js';
import type { PlaybookOutcome } from '../ansible/ansible-event.js';
import { askAnsible } from '../ansible/ask-ansible.js';
import { createAnsibleOutputParser } from '../ansible/create-ansible-output-parser.js';
import { describeProgress } from '../ansible/describe-progress.js';
import { parseListTasks } from '../ansible/parse-list-tasks.js';
import { type PlaybookInvocation, playbookArgv } from '../ansible/playbook-invocation.js';
import type { StepContext } from '../plan/step.js';
import type { ExecRequest } from '../ports/remote-shell.js';
import { detachedFolder } from '../remote/detached-folder.js';
import { execDetached, type FoundRun } from '../remote/exec-detached.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

const COUNT_WAIT_MS = 3_000;

/** Judges a finished run: the step's summary, or a thrown ClusterBotError saying why it failed. */
export type PlaybookReport = (outcome: PlaybookOutcome) => string;

export interface RunPlaybookOptions {
  readonly report?: PlaybookReport | undefined;
  /** Runs it detached (a mutating playbook), following `found` when a resumed step has a run. */
  readonly detached?: { readonly found: FoundRun } | undefined;
}

/**
 * Runs a playbook on the ops host, streaming every line to the job log and turning play/task
 * banners into progress. Unless `report` judges the run instead, it fails on a non-zero exit or
 * any failed/unreachable host, summarised as host + task + msg, with the recap.
 */
export async function runPlaybook(
  ctx: StepContext,
  invocation: PlaybookInvocation,
  options: RunPlaybookOptions = {},
): Promise<string> {
  const { report, detached } = options;
  const parser = createAnsibleOutputParser();
  const cwd = repoPaths(ctx.world).ansible;
  let playCount: number | undefined;
  // The play count comes from a parse-only --list-tasks run beside the real one, not before it.
  const counting = countPlays(ctx, invocation).then((count) => {
    playCount = count;
  });
  let countAwaited = false;
  let lastProgress = '';
  const unmatched = createUnmatchedPlays();
  const target = opsTarget(ctx.world);
  const exec = (request: ExecRequest) =>
    detached
      ? execDetached(
          ctx,
          { target, folder: detachedFolder(ctx) },
          invocation.playbook,
          request,
          detached.found,
        )
      : ctx.shell.exec(target, request);
  const result = await exec({
    argv: playbookArgv(invocation),
    cwd,
    env: await ansibleEnv(ctx),
    timeoutMs: ctx.cluster.timeouts.playbook,
    signal: ctx.signal,
    onLine: async (line) => {
      unmatched.push(line);
      const events = parser.push(line);
      const pending = ctx.output(line);
      if (events.some((event) => event.type === 'task' || event.type === 'play')) {
        if (!countAwaited) {
          countAwaited = true;
          // Both runs start ansible at once and the listing usually finishes a moment after the first
          // banner: hold the first progress briefly so it already says "play 1/N".
          await settledWithin(ctx, counting, COUNT_WAIT_MS);
        }
        const text = describeProgress({ ...parser.progress(), playCount });
        if (text !== lastProgress) {
          lastProgress = text;
          await ctx.progress(text);
        }
      }
      await pending;
    },
  });
  const outcome = parser.result(result.exitCode);
  if (report) return report(outcome);
  const recap = outcome.recap
    ? Object.entries(outcome.recap)
        .map(
          ([host, c]) =>
            `${host} ok=${c.ok} changed=${c.changed} failed=${c.failed} unreachable=${c.unreachable}`,
        )
        .join('; ')
    : 'no recap';
  if (!outcome.ok) {
    const failures = outcome.failures.map((f) => `${f.host}: ${f.task}: ${f.msg}`);
    const reason =
      failures.length > 0
        ? failures.slice(-3).join(' | ')
        : (outcome.errors[0] ?? `ansible-playbook exited ${result.exitCode ?? `on signal ${result.signal}`}`);
    throw new ClusterBotError('PLAYBOOK_FAILED', `${invocation.playbook} failed: ${reason}`, {
      details: {
        playbook: invocation.playbook,
        exitCode: result.exitCode,
        failures: outcome.failures,
        recap: outcome.recap,
        lastTask: outcome.lastTask,
      },
    });
  }
  // ansible skips a play whose pattern matches nothing and exits 0; only --limit makes that expected.
  if (!invocation.limit && unmatched.plays.length > 0) {
    throw new ClusterBotError(
      'PLAYBOOK_FAILED',
      `${invocation.playbook} ran no host for ${unmatched.plays.map((play) => `play "${play}"`).join(', ')} ("skipping: no hosts matched"): inventory/hosts.ini does not give it the nodes`,
      { details: { playbook: invocation.playbook, unmatched: unmatched.plays } },
    );
  }
  return `${invocation.playbook} ok (${recap})`;
}

/** Plays ansible announced and then skipped with "no hosts matched". */
function createUnmatchedPlays() {
  const plays: string[] = [];
  let current = '';
  return {
    plays,
    push(line: string) {
      const play = /^PLAY \[(.*)\] \**$/.exec(line);
      if (play) current = play[1]!;
      else if (line.trim() === 'skipping: no hosts matched') plays.push(current);
    },
  };
}

async function settledWithin(ctx: StepContext, work: Promise<void>, ms: number): Promise<void> {
  const timer = new AbortController();
  try {
    await Promise.race([work, ctx.clock.sleep(ms, timer.signal).catch(() => undefined)]);
  } finally {
    timer.abort();
  }
}

async function countPlays(ctx: StepContext, invocation: PlaybookInvocation): Promise<number | undefined> {
  try {
    const listed = await askAnsible(ctx, invocation, '--list-tasks');
    return listed.exitCode === 0 ? parseListTasks(listed.stdout).plays.length || undefined : undefined;
  } catch {
    return undefined;
  }
}
