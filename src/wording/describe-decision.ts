import type { Decision, StoredApproval } from '../service/index.js';
import type { Marks } from './marks.js';
import { truncate } from './truncate.js';

/** An approval's request after a decision: who decided what and when, and the command it covered. */
export interface DecisionWords {
  readonly text: string;
  readonly command?: string | undefined;
}

export function describeDecision(stored: StoredApproval, at: number, marks: Marks): DecisionWords {
  const when = new Date(stored.decidedAt ?? at).toISOString().replace('T', ' ').slice(0, 19);
  const title = marks.text(stored.request?.stepTitle ?? 'step');
  const state = stored.state;
  const text =
    state.status === 'approved'
      ? `✅ ${title} approved by ${state.by.map(marks.user).join(', ')} at ${when} UTC`
      : state.status === 'rejected'
        ? `🚫 ${title} rejected by ${marks.user(state.by)} at ${when} UTC`
        : `${title}: ${state.status}`;
  const command = stored.request
    ? marks.code(marks.text(truncate(stored.request.binding.commandLine, 500)))
    : undefined;
  return { text, command };
}

/** A counted approval, said in the job's thread. */
export function describeCountedApproval(
  counted: Extract<Decision, { kind: 'counted' }>,
  marks: Marks,
): string {
  return `👍 ${marks.user(counted.userId)} approved ${marks.text(counted.step)} (${counted.count}/${counted.required}); ${counted.missing} more needed.`;
}
