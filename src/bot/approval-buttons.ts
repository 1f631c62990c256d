/** The action ids a pair of Approve/Reject buttons answers to (the thread's, or the App Home's). */
export interface ApprovalActions {
  readonly approve: string;
  readonly reject: string;
}

/**
 * Approve and Reject for one approval, its id as their value: the thread's request and the App
 * Home show the same pair, and either click goes to the same decision. `what` names the approval
 * on a surface that lists several (the Home).
 */
export function approvalButtons(approvalId: string, actions: ApprovalActions, what = '') {
  const label = (verb: string) => (what ? `${verb} ${what}` : verb).slice(0, 75);
  return [
    {
      type: 'button',
      style: 'primary',
      text: { type: 'plain_text', text: label('Approve') },
      action_id: actions.approve,
      value: approvalId,
    },
    {
      type: 'button',
      style: 'danger',
      text: { type: 'plain_text', text: label('Reject') },
      action_id: actions.reject,
      value: approvalId,
    },
  ];
}
