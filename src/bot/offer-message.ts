/** What a job's thread offers under its outcome: a line, and one button carrying the job. */
export interface OfferMessage {
  readonly text: string;
  readonly blocks: unknown[];
}

/** The offer's section and its button (`danger` for one that changes the cluster back). */
export function offerMessage(
  text: string,
  button: {
    readonly label: string;
    readonly actionId: string;
    readonly jobId: string;
    readonly danger?: boolean;
  },
): OfferMessage {
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: button.label },
            ...(button.danger && { style: 'danger' }),
            action_id: button.actionId,
            value: button.jobId,
          },
        ],
      },
    ],
  };
}
