import { runCommand } from '../commands/run-command.js';
import type { CommandContext, CommandReply } from '../commands/verb-handler.js';
import { describeAudit } from './describe-audit.js';
import { describeRefusal } from './describe-refusal.js';
import { describeRecentJobs, describeStatus } from './describe-status.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { HELP_TEXT } from './help-text.js';
import type { JobPageUrl } from './job-page-url.js';

export interface CommandRequest {
  readonly text: string;
  readonly userId: string;
  readonly channelId: string;
  /** The delivery's key (Slack's trigger_id): a repeat of it is REPEATED_DELIVERY, to answer with nothing. */
  readonly deliveryKey?: string | undefined;
}

/**
 * One `/cluster …` line in, one ephemeral answer out. Everything is validated before a job
 * exists: who, where, and every word against the config.
 */
export async function handleClusterCommand(
  request: CommandRequest,
  deps: Omit<CommandContext, 'actor'> & { readonly jobPageUrl?: JobPageUrl | undefined },
): Promise<{ readonly text: string; readonly reply: CommandReply }> {
  const actor = { userId: request.userId, channelId: request.channelId };
  const reply = await runCommand(request.text, { ...deps, actor }, request.deliveryKey);
  return { text: describeReply(reply, deps.jobPageUrl), reply };
}

/** A command's answer in Slack mrkdwn; `jobs` links each job's page when there are pages. */
export function describeReply(reply: CommandReply, jobPageUrl?: JobPageUrl): string {
  if ('code' in reply) return describeRefusal(reply);
  switch (reply.kind) {
    case 'help':
      return HELP_TEXT;
    case 'queued': {
      const behind =
        reply.position > 0 ? ` It waits for ${reply.cluster} (position ${reply.position} in line).` : '';
      return `Queued as job #${reply.number}: \`${reply.command}\`.${behind} Progress goes into its thread.`;
    }
    case 'planned':
      return `\`\`\`${escapeMrkdwn(reply.steps)}\`\`\`\nChecking it against the infra repo and the cluster as job #${reply.number} (nothing is run): its thread lists every refusal it would meet.`;
    case 'cancelling':
      return `Cancelling job #${reply.number}; its thread will say when it stopped.`;
    case 'status':
      return describeStatus(reply.clusters);
    case 'jobs':
      return describeRecentJobs(reply.jobs, jobPageUrl);
    case 'audit':
      return describeAudit(reply.entries);
  }
}
