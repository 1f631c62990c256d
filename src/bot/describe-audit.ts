import type { AuditEntry } from '../service/index.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

export function describeAudit(entries: readonly AuditEntry[]): string {
  if (entries.length === 0) return 'The audit trail is empty.';
  const lines = entries.map((entry) => {
    const when = new Date(entry.at).toISOString().slice(0, 19).replace('T', ' ');
    // The board's number, as the thread shows the step; an entry written before it was kept shows the id.
    const step = entry.stepNumber ? ` step ${entry.stepNumber}` : entry.stepId ? ` step ${entry.stepId}` : '';
    const approval = entry.approvalId ? ` approval ${entry.approvalId}` : '';
    const job = entry.jobId ? ` [${entry.jobId.replace('job-', '#')}${step}${approval}]` : '';
    const who = /^[UW][A-Z0-9]+$/.test(entry.who) ? `<@${entry.who}>` : escapeMrkdwn(entry.who);
    return `• ${when} UTC ${who} ${entry.action}${escapeMrkdwn(job)}: ${escapeMrkdwn(entry.what)}`;
  });
  return `Audit trail (newest first):\n${lines.join('\n')}`;
}
