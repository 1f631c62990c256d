/** The action ids a pair of Approve/Reject buttons answers to (the thread's, or the App Home's). */
export interface ApprovalActions {
  readonly approve: string;
  readonly reject: string;
}

/** A Block Kit confirmation dialog: Slack asks it before sending the click. */
export interface ConfirmDialog {
  readonly title: { readonly type: 'plain_text'; readonly text: string };
  readonly text: { readonly type: 'plain_text'; readonly text: string };
  readonly confirm: { readonly type: 'plain_text'; readonly text: string };
  readonly deny: { readonly type: 'plain_text'; readonly text: string };
  readonly style: 'primary';
}

export interface ApprovalButtonOptions {
  /** Names the approval on a surface that lists several (the Home). */
  readonly what?: string | undefined;
  /** Asked before an Approve click is sent (the Home, which shows no request). */
  readonly confirm?: ConfirmDialog | undefined;
  /** False leaves Reject only (the requester where self-approval is off). */
  readonly approve?: boolean | undefined;
}

/**
 * Approve and Reject for one approval, its id as their value: the thread's request and the App
 * Home show the same pair, and either click goes to the same decision.
 */
export function approvalButtons(
  approvalId: string,
  actions: ApprovalActions,
  options: ApprovalButtonOptions = {},
) {
  const label = (verb: string) => (options.what ? `${verb} ${options.what}` : verb).slice(0, 75);
  const button = (verb: string, style: string, actionId: string) => ({
    type: 'button',
    style,
    text: { type: 'plain_text', text: label(verb) },
    action_id: actionId,
    value: approvalId,
  });
  const approve = {
    ...button('Approve', 'primary', actions.approve),
    ...(options.confirm ? { confirm: options.confirm } : {}),
  };
  const reject = button('Reject', 'danger', actions.reject);
  return options.approve === false ? [reject] : [approve, reject];
}
