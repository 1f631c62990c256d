import { runCommand } from '../commands/run-command.js';
import type { CommandContext, CommandReply } from '../commands/verb-handler.js';
import { describeReply } from '../wording/describe-reply.js';
import type { JobPageUrl } from '../wording/job-page-url.js';
import type { Marks } from '../wording/marks.js';

export interface CommandRequest {
  readonly text: string;
  readonly userId: string;
  readonly channelId: string;
  /** The delivery's key (Slack's trigger_id): a repeat of it is REPEATED_DELIVERY, to answer with nothing. */
  readonly deliveryKey?: string | undefined;
}

export type CommandDeps = Omit<CommandContext, 'actor'> & {
  /** How the edge marks the answer (Slack's mrkdwn, the terminal's text). */
  readonly marks: Marks;
  readonly jobPageUrl?: JobPageUrl | undefined;
};

/**
 * One `/cluster …` line in, one answer out, for every edge. Everything is validated before a job
 * exists: who, where, and every word against the config.
 */
export async function handleClusterCommand(
  request: CommandRequest,
  deps: CommandDeps,
): Promise<{ readonly text: string; readonly reply: CommandReply }> {
  const actor = { userId: request.userId, channelId: request.channelId };
  const reply = await runCommand(request.text, { ...deps, actor }, request.deliveryKey);
  return { text: describeReply(reply, deps.marks, deps.jobPageUrl), reply };
}
