import type { CommandReply } from '../commands/verb-handler.js';
import { describeAudit } from './describe-audit.js';
import { describeRefusal } from './describe-refusal.js';
import { describeRecentJobs, describeStatus } from './describe-status.js';
import { helpText } from './help-text.js';
import type { JobPageUrl } from './job-page-url.js';
import type { Marks } from './marks.js';

/** A command's answer; `jobs` links each job's page when there are pages. */
export function describeReply(reply: CommandReply, marks: Marks, jobPageUrl?: JobPageUrl): string {
  if ('code' in reply) return describeRefusal(reply, marks);
  switch (reply.kind) {
    case 'help':
      return helpText(marks);
    case 'queued': {
      const behind =
        reply.position > 0 ? ` It waits for ${reply.cluster} (position ${reply.position} in line).` : '';
      return `Queued as job #${reply.number}: ${marks.code(marks.text(reply.command))}.${behind} Progress goes into its thread.`;
    }
    case 'planned':
      return `${marks.block(reply.steps)}\nChecking it against the infra repo and the cluster as job #${reply.number} (nothing is run): its thread lists every refusal it would meet.`;
    case 'cancelling':
      return `Cancelling job #${reply.number}; its thread will say when it stopped.`;
    case 'status':
      return describeStatus(reply.clusters, marks);
    case 'jobs':
      return describeRecentJobs(reply.jobs, marks, jobPageUrl);
    case 'audit':
      return describeAudit(reply.entries, marks);
  }
}
