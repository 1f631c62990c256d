import { type GroupMembers, isMember, refuseAccess } from '../access/access-policy.js';
import type { WorldConfig } from '../config/world-config.js';
import { isClusterBotError } from '../errors.js';
import type { AuditLog } from '../jobs/audit-log.js';
import type { CommandRateLimit } from '../jobs/command-rate-limit.js';
import type { JobQueue } from '../jobs/create-job-queue.js';
import { requestCancel } from '../jobs/request-cancel.js';
import { closestMatch } from '../lifecycle/command/closest-match.js';
import {
  describeCommand,
  LIFECYCLE_VERBS,
  type LifecycleCommand,
} from '../lifecycle/command/lifecycle-command.js';
import { parseLifecycleCommand } from '../lifecycle/command/parse-lifecycle-command.js';
import { buildPlan } from '../lifecycle/plans/build-plan.js';
import { describePlan } from '../lifecycle/plans/describe-plan.js';
import type { Logger } from '../log/create-logger.js';
import { describeAudit } from './describe-audit.js';
import { describeJob } from './describe-job.js';
import { describeRecentJobs, describeStatus, type StatusDeps } from './describe-status.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { HELP_TEXT } from './help-text.js';

export interface CommandRequest {
  readonly text: string;
  readonly userId: string;
  readonly channelId: string;
}

export interface CommandDeps extends StatusDeps {
  readonly world: WorldConfig;
  readonly queue: JobQueue;
  readonly audit: AuditLog;
  readonly now: () => number;
  readonly members: GroupMembers;
  readonly rateLimit: CommandRateLimit;
  readonly logger: Logger;
}

/** What to tell the person who typed the command; `public` replies go to the channel. */
export interface CommandReply {
  readonly text: string;
}

const META_VERBS = ['help', 'plan', 'status', 'jobs', 'cancel', 'audit'];
const MAX_AUDIT_ENTRIES = 50;

/**
 * One `/cluster …` line in, one ephemeral answer out. Everything is validated here, before a job
 * exists: who, where, and every word against the config.
 */
export async function handleClusterCommand(
  request: CommandRequest,
  deps: CommandDeps,
): Promise<CommandReply> {
  if (!(await deps.rateLimit.take(request.userId))) {
    return {
      text: `⏳ Slow down: at most ${deps.rateLimit.perMinute} /cluster commands a minute per person. Nothing was run; try again in a minute.`,
    };
  }
  const text = request.text.trim();
  const [verb = 'help', ...rest] = text.split(/[ \t]+/);
  if (verb === 'help' || text === '') return { text: HELP_TEXT };

  const denied = await refuseAccess(deps.world, deps.members, request);
  if (denied) return { text: `⛔ ${denied}` };

  if (verb === 'status') {
    const cluster = rest[0];
    if (rest.length > 1 || (cluster !== undefined && !deps.world.clusters[cluster])) {
      return refusal(
        `status takes an optional cluster (${Object.keys(deps.world.clusters).join(', ')})`,
        undefined,
        '',
      );
    }
    return { text: await describeStatus(deps, cluster) };
  }
  if (verb === 'jobs') return { text: await describeRecentJobs(deps) };
  if (verb === 'cancel') return cancel(rest, request.userId, deps);
  if (verb === 'audit') {
    const count = rest.length === 0 ? 10 : Number(rest[0]);
    if (rest.length > 1 || !Number.isInteger(count) || count < 1 || count > MAX_AUDIT_ENTRIES) {
      return refusal(`audit takes an optional count from 1 to ${MAX_AUDIT_ENTRIES}`, undefined, '');
    }
    return { text: describeAudit(await deps.audit.recent(count)) };
  }

  if (verb === 'plan') {
    const parsed = parseLifecycleCommand(rest.join(' '), deps.world);
    if (!parsed.ok) return refusal(parsed.error, parsed.suggestion, 'plan ');
    const cluster = deps.world.clusters[parsed.command.cluster]!;
    const deniedHere = await refuseAccess(deps.world, deps.members, request, cluster);
    if (deniedHere) return { text: `⛔ ${deniedHere}` };
    let steps: string;
    try {
      steps = describePlan(buildPlan(parsed.command, deps.world));
    } catch (error) {
      if (isClusterBotError(error)) return { text: `⛔ ${escapeMrkdwn(error.message)}` };
      throw error;
    }
    // The steps come from the config alone; what the repo and the cluster would refuse takes a read-only job.
    const checking = await submit(
      { verb: 'plan', cluster: cluster.name, of: parsed.command },
      false,
      request,
      deps,
    );
    return { text: `\`\`\`${escapeMrkdwn(steps)}\`\`\`\n${checking}` };
  }

  if (!(LIFECYCLE_VERBS as readonly string[]).includes(verb)) {
    const suggestion = closestMatch(verb, [...LIFECYCLE_VERBS, ...META_VERBS]);
    const completed = suggestion && [suggestion, ...rest].join(' ');
    return refusal(`unknown command "${verb.slice(0, 40)}"`, completed, '', true);
  }
  const parsed = parseLifecycleCommand(text, deps.world);
  if (!parsed.ok) return refusal(parsed.error, parsed.suggestion, '');
  const cluster = deps.world.clusters[parsed.command.cluster]!;
  const deniedHere = await refuseAccess(deps.world, deps.members, request, cluster);
  if (deniedHere) return { text: `⛔ ${deniedHere}` };
  try {
    buildPlan(parsed.command, deps.world);
  } catch (error) {
    if (isClusterBotError(error)) return { text: `⛔ ${escapeMrkdwn(error.message)}` };
    throw error;
  }
  return { text: await submit(parsed.command, parsed.queue, request, deps) };
}

/** Turns a checked command into a job (or a "busy" answer), audited either way. */
async function submit(
  command: LifecycleCommand,
  queueIfBusy: boolean,
  request: CommandRequest,
  deps: CommandDeps,
): Promise<string> {
  const result = await deps.queue.enqueue({
    command,
    requestedBy: request.userId,
    channel: request.channelId,
    queueIfBusy,
  });
  const what = describeCommand(command);
  if (result.kind === 'busy') {
    const holder = await describeJob(result.holderJobId, deps.records, deps.threads);
    await deps.audit.record({
      at: deps.now(),
      who: request.userId,
      action: 'refused',
      what: `${what}: busy`,
    });
    return `⛔ ${command.cluster} is busy: ${holder}. Nothing was run; add \`--queue\` to run \`${what}\` after it.`;
  }
  const { record, position } = result;
  await deps.audit.record({ at: deps.now(), who: request.userId, action: 'command', what, jobId: record.id });
  if (command.verb === 'plan') {
    return `Checking it against the infra repo and the cluster as job #${record.number} (nothing is run): its thread lists every refusal it would meet.`;
  }
  const behind = position > 0 ? ` It waits for ${command.cluster} (position ${position} in line).` : '';
  return `Queued as job #${record.number}: \`${what}\`.${behind} Progress goes into its thread.`;
}

async function cancel(words: readonly string[], userId: string, deps: CommandDeps): Promise<CommandReply> {
  const match = words.length === 1 ? /^#?(\d{1,9})$/.exec(words[0]!) : null;
  if (!match) return refusal('cancel takes a job number, e.g. `cancel 12`', undefined, '');
  const record = await deps.records.get(`job-${match[1]}`);
  if (!record) return refusal(`there is no job #${match[1]}`, undefined, '');
  if (record.outcome)
    return { text: `Job #${record.number} already ended (${record.outcome}); nothing to cancel.` };
  const cluster = deps.world.clusters[record.command.cluster]!;
  const allowed = userId === record.requestedBy || (await isMember(userId, cluster.approvers, deps.members));
  if (!allowed)
    return {
      text: `⛔ Only the requester or an approver of ${cluster.name} may cancel job #${record.number}.`,
    };
  await requestCancel(deps.redis, deps.keys, record.id, userId);
  await deps.queue.promote(record.id);
  await deps.audit.record({
    at: deps.now(),
    who: userId,
    action: 'cancel',
    what: describeCommand(record.command),
    jobId: record.id,
  });
  return { text: `Cancelling job #${record.number}; its thread will say when it stopped.` };
}

function refusal(
  error: string,
  suggestion: string | undefined,
  prefix: string,
  withHelp = false,
): CommandReply {
  // The error may quote what was typed: escaped, so a command cannot make the bot post a link or ping.
  const hint = suggestion ? ` Did you mean \`${escapeMrkdwn(prefix + suggestion)}\`?` : '';
  return { text: `⛔ ${escapeMrkdwn(error)}.${hint} Nothing was run.${withHelp ? `\n\n${HELP_TEXT}` : ''}` };
}
