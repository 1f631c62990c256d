/** What the person reads when their command or click failed after the ack: Slack itself shows nothing more. */
export const HANDLER_FAILED =
  "Something went wrong on the bot's side while handling that; it is in the bot's log. Nothing more was done: try again, or ask an operator.";

/** Posts a message to a request's response_url (the person's own view, as Bolt's `respond` does). */
export type RespondTo = (responseUrl: string, message: Record<string, unknown>) => Promise<void>;

/**
 * After a handler threw: tells the person who sent the request (a slash command or a button click,
 * whose body carries a response_url) that it failed, ephemerally, without the error's text (which
 * may hold anything). A request with nothing to answer (an App Home event) gets no message.
 * Returns whether it answered.
 */
export async function answerHandlerFailure(body: unknown, respondTo: RespondTo): Promise<boolean> {
  const responseUrl = (body as { response_url?: unknown } | undefined)?.response_url;
  if (typeof responseUrl !== 'string' || responseUrl === '') return false;
  await respondTo(responseUrl, { response_type: 'ephemeral', replace_original: false, text: HANDLER_FAILED });
  return true;
}

/** Bolt's way of answering a response_url: a JSON POST; bounded, so a stuck Slack does not hold it. */
export const postToResponseUrl: RespondTo = async (responseUrl, message) => {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`response_url answered ${response.status}`);
};
