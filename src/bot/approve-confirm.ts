import type { PendingApproval } from '../service/index.js';
import { truncate } from '../wording/truncate.js';
import type { ConfirmDialog } from './approval-buttons.js';

/** Slack's limits on a confirmation dialog object: title 100, text 300, each button 30. */
const TITLE_MAX = 100;
const TEXT_MAX = 300;
const TARGETS_MAX = 80;

/**
 * The dialog a Home Approve asks first: what the approval covers as its request says (command line,
 * targets, infra repo commit), so a click from the Home is not blind. The commit and the pointer to
 * the request always fit; the command line gives way first, in its middle (its head says where it
 * runs, its tail the playbook and limit). Plain text: nothing in it is markup.
 */
export function approveConfirm(approval: PendingApproval): ConfirmDialog {
  const number = approval.jobId.replace('job-', '#');
  const { commandLine, targets, commit } = approval.runs;
  const rest = [
    `Targets: ${truncate(targets || 'none named', TARGETS_MAX)}`,
    ...(commit ? [`Infra repo commit: ${commit}`] : []),
    'The reason and the check-mode preview are in the request in its thread.',
  ].join('\n');
  const runs = 'Runs: ';
  const room = TEXT_MAX - rest.length - runs.length - 1;
  return {
    title: { type: 'plain_text', text: truncate(`Approve ${number} ${approval.stepTitle}?`, TITLE_MAX) },
    text: { type: 'plain_text', text: `${runs}${shorten(commandLine, room)}\n${rest}` },
    confirm: { type: 'plain_text', text: 'Approve' },
    deny: { type: 'plain_text', text: 'Cancel' },
    style: 'primary',
  };
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor((max - 1) / 3);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}
