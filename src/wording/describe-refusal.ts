import type { AccessRefusal, Refusal } from '../service/index.js';
import { describeJob } from './describe-job.js';
import { helpText } from './help-text.js';
import type { Marks } from './marks.js';

/** An access refusal as a sentence (the worker prefixes it as it likes). */
export function describeAccessRefusal(refusal: AccessRefusal, marks: Marks): string {
  if (refusal.code === 'WRONG_CHANNEL') {
    const use = refusal.allowed.map(marks.channel).join(', ');
    return refusal.cluster
      ? `/cluster commands for ${refusal.cluster} are not accepted in ${marks.channel(refusal.channel)}. Use ${use}.`
      : `/cluster is not accepted in this channel. Use ${use}.`;
  }
  return refusal.cluster
    ? `${marks.user(refusal.user)} is not an operator of ${refusal.cluster} (clusters.${refusal.cluster}.operators, else access.operators in its config), so nothing was run.`
    : 'You are not an operator of cluster-bot (access.operators in its config), so nothing was run.';
}

/** Every refusal in the edge's marks: what was typed is marked as text, so in Slack it cannot post a link or a ping. */
export function describeRefusal(refusal: Refusal, marks: Marks): string {
  switch (refusal.code) {
    case 'WRONG_CHANNEL':
    case 'NOT_OPERATOR':
      return `⛔ ${describeAccessRefusal(refusal, marks)}`;
    case 'NO_CLUSTERS':
      return `⛔ ${marks.user(refusal.user)} is an operator of none of this bot's clusters (clusters.<name>.operators, else access.operators in its config), so there is nothing to show.`;
    case 'REPEATED_DELIVERY':
      return 'This request was already taken; nothing more was done.';
    case 'RATE_LIMITED':
      return `⏳ Slow down: at most ${refusal.perMinute} /cluster commands a minute per person. Nothing was run; try again in a minute.`;
    case 'COMMAND_INVALID':
      return nothingRun(marks.text(refusal.message), marks, refusal.suggestion);
    case 'UNKNOWN_VERB':
      return `${nothingRun(marks.text(`unknown command "${refusal.verb}"`), marks, refusal.suggestion)}\n\n${helpText(marks)}`;
    case 'USAGE':
      return nothingRun(
        refusal.verb === 'status'
          ? `status takes an optional cluster (${marks.text(refusal.clusters.join(', '))})`
          : refusal.verb === 'audit'
            ? `audit takes an optional count from 1 to ${refusal.max}`
            : `${refusal.verb} takes a job number, e.g. ${marks.code(`${refusal.verb} 12`)}`,
        marks,
      );
    case 'PLAN_INVALID':
      return `⛔ ${marks.text(refusal.message)}`;
    case 'BUSY':
      return `⛔ ${refusal.cluster} is busy: ${describeJob(refusal.holder, marks)}. Nothing was run; add ${marks.code('--queue')} to run ${marks.code(marks.text(refusal.command))} after it.`;
    case 'NOT_QUEUED':
      return `⚠️ Could not queue ${marks.code(marks.text(refusal.command))}: the job queue (Redis) did not take it. Nothing was started; try again.`;
    case 'NO_SUCH_JOB':
      return nothingRun(`there is no job #${refusal.number}`, marks);
    case 'JOB_ENDED':
      return `Job #${refusal.number} already ended (${refusal.outcome}); nothing to cancel.`;
    case 'NOT_CANCELLER':
      return `⛔ Only the requester or an approver of ${refusal.cluster} may cancel job #${refusal.number}.`;
    case 'NO_SUCH_APPROVAL':
      return '⛔ This button does not match a pending approval; nothing changed.';
    case 'CLICK_REFUSED':
      return `⛔ ${refusal.reason}; nothing changed.`;
    case 'ROLLBACK_NOT_OFFERED':
      return describeRollbackRefusal(refusal.why, refusal.number, marks);
    case 'RERUN_REFUSED':
      return describeRerunRefusal(refusal, marks);
  }
}

function describeRerunRefusal(refusal: Extract<Refusal, { code: 'RERUN_REFUSED' }>, marks: Marks): string {
  const job = `Job #${marks.text(String(refusal.number ?? '?'))}`;
  switch (refusal.why) {
    case 'no-such-job':
      return refusal.number === undefined
        ? '⛔ This button does not belong to a job; nothing was run.'
        : `⛔ There is no job #${marks.text(String(refusal.number))} (never, or its record expired after the retention), so there is nothing to re-run; nothing was run.`;
    case 'not-ended':
      return `⛔ ${job} has not ended; only a failed or cancelled job is re-run. Nothing was run.`;
    case 'not-failed':
      return `⛔ ${job} ${refusal.outcome}; only a failed or cancelled job is re-run. Nothing was run; ask for the command again to run it anew.`;
    case 'plan-job':
      return `⛔ ${job} is a ${marks.code('plan')}, which changes nothing: ask for the plan again. Nothing was run.`;
    case 'already-rerun':
      return `⛔ ${job} was re-run already (${refusal.rerun === undefined ? 'being queued' : `job #${refusal.rerun}`}); re-run that job if it failed too. Nothing more was run.`;
  }
}

function describeRollbackRefusal(
  why: Extract<Refusal, { code: 'ROLLBACK_NOT_OFFERED' }>['why'],
  number: number | undefined,
  marks: Marks,
): string {
  switch (why) {
    case 'no-such-job':
      return '⛔ This button does not belong to a job; nothing was run.';
    case 'not-a-rollout':
      return `⛔ Job #${number} is not a Cilium rollout, so there is nothing to roll back from it; nothing was run.`;
    case 'not-failed':
      return `⛔ Job #${number} did not fail, so it offers no rollback; nothing was run. ${marks.code('/cluster cilium <cluster> --rollback')} rolls back on purpose.`;
    case 'already-rolled-back':
      return `⛔ This rollout's rollback ${number === undefined ? 'is being queued' : `is job #${number}`} already; nothing more was run. ${marks.code('/cluster cilium <cluster> --rollback <revision>')} goes elsewhere on purpose.`;
  }
}

/** `error` is marked already: a message quotes what was typed as text, and may show code. */
function nothingRun(error: string, marks: Marks, suggestion?: string): string {
  const hint = suggestion ? ` Did you mean ${marks.code(marks.text(suggestion))}?` : '';
  return `⛔ ${error}.${hint} Nothing was run.`;
}
