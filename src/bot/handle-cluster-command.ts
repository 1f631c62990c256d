import type { WorldConfig } from '../config/world-config.js';
import { isClusterBotError } from '../errors.js';
import type { JobQueue } from '../jobs/create-job-queue.js';
import { closestMatch } from '../lifecycle/command/closest-match.js';
import { describeCommand, LIFECYCLE_VERBS } from '../lifecycle/command/lifecycle-command.js';
import { parseLifecycleCommand } from '../lifecycle/command/parse-lifecycle-command.js';
import { buildPlan } from '../lifecycle/plans/build-plan.js';
import { describePlan } from '../lifecycle/plans/describe-plan.js';
import type { Logger } from '../log/create-logger.js';
import { type GroupMembers, isMember } from './access-policy.js';
import { HELP_TEXT } from './help-text.js';

export interface CommandRequest {
  readonly text: string;
  readonly userId: string;
  readonly channelId: string;
}

export interface CommandDeps {
  readonly world: WorldConfig;
  readonly queue: JobQueue;
  readonly members: GroupMembers;
  readonly logger: Logger;
}

/** What to tell the person who typed the command; `public` replies go to the channel. */
export interface CommandReply {
  readonly text: string;
}

const META_VERBS = ['help', 'plan'];

/**
 * One `/cluster …` line in, one ephemeral answer out. Everything is validated here, before a job
 * exists: who, where, and every word against the config.
 */
export async function handleClusterCommand(
  request: CommandRequest,
  deps: CommandDeps,
): Promise<CommandReply> {
  const text = request.text.trim();
  const [verb = 'help', ...rest] = text.split(/[ \t]+/);
  if (verb === 'help' || text === '') return { text: HELP_TEXT };

  const { commandChannels } = deps.world.slack;
  if (commandChannels.length > 0 && !commandChannels.includes(request.channelId)) {
    return {
      text: `⛔ /cluster is not accepted in this channel. Use ${commandChannels.map((c) => `<#${c}>`).join(', ')}.`,
    };
  }
  if (!(await isMember(request.userId, deps.world.access.operators, deps.members))) {
    return {
      text: '⛔ You are not an operator of cluster-bot (access.operators in its config), so nothing was run.',
    };
  }

  if (verb === 'plan') {
    const parsed = parseLifecycleCommand(rest.join(' '), deps.world);
    if (!parsed.ok) return refusal(parsed.error, parsed.suggestion, 'plan ');
    try {
      return { text: `\`\`\`${describePlan(buildPlan(parsed.command, deps.world))}\`\`\`` };
    } catch (error) {
      if (isClusterBotError(error)) return { text: `⛔ ${error.message}` };
      throw error;
    }
  }

  if (!(LIFECYCLE_VERBS as readonly string[]).includes(verb)) {
    const suggestion = closestMatch(verb, [...LIFECYCLE_VERBS, ...META_VERBS]);
    const completed = suggestion && [suggestion, ...rest].join(' ');
    return refusal(`unknown command "${verb.slice(0, 40)}"`, completed, '', true);
  }
  const parsed = parseLifecycleCommand(text, deps.world);
  if (!parsed.ok) return refusal(parsed.error, parsed.suggestion, '');
  try {
    buildPlan(parsed.command, deps.world);
  } catch (error) {
    if (isClusterBotError(error)) return { text: `⛔ ${error.message}` };
    throw error;
  }
  const record = await deps.queue.enqueue({
    command: parsed.command,
    requestedBy: request.userId,
    channel: request.channelId,
  });
  deps.logger.info(
    { jobId: record.id, user: request.userId, command: describeCommand(parsed.command) },
    'job queued',
  );
  return {
    text: `Queued as job #${record.number}: \`${describeCommand(parsed.command)}\`. Progress goes into its thread.`,
  };
}

function refusal(
  error: string,
  suggestion: string | undefined,
  prefix: string,
  withHelp = false,
): CommandReply {
  const hint = suggestion ? ` Did you mean \`${prefix}${suggestion}\`?` : '';
  return { text: `⛔ ${error}.${hint} Nothing was run.${withHelp ? `\n\n${HELP_TEXT}` : ''}` };
}
