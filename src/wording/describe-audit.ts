import type { AuditEntry } from '../service/index.js';
import type { Marks } from './marks.js';

/** Where a click's button was, so an investigation can tell a Home click from a thread click. */
const VIA = { thread: 'thread', 'app-home': 'App Home' } as const;

export function describeAudit(entries: readonly AuditEntry[], marks: Marks): string {
  if (entries.length === 0) return 'The audit trail is empty.';
  const lines = entries.map((entry) => {
    const when = new Date(entry.at).toISOString().slice(0, 19).replace('T', ' ');
    // The board's number, as the thread shows the step; an entry written before it was kept shows the id.
    const step = entry.stepNumber ? ` step ${entry.stepNumber}` : entry.stepId ? ` step ${entry.stepId}` : '';
    const approval = entry.approvalId ? ` approval ${entry.approvalId}` : '';
    const job = entry.jobId ? ` [${entry.jobId.replace('job-', '#')}${step}${approval}]` : '';
    const who = /^[UW][A-Z0-9]+$/.test(entry.who) ? marks.user(entry.who) : marks.text(entry.who);
    const via = entry.via ? ` (${VIA[entry.via]})` : '';
    return `• ${when} UTC ${who} ${entry.action}${via}${marks.text(job)}: ${marks.text(entry.what)}`;
  });
  return `Audit trail (newest first):\n${lines.join('\n')}`;
}
