/** The Slack calls the bot makes, behind one narrow interface (WebClient in production, anything in tests). */
export interface SlackMessage {
  readonly channel: string;
  readonly text: string;
  readonly blocks?: readonly unknown[] | undefined;
  readonly threadTs?: string | undefined;
  /** A thread reply also shown in the channel (Slack's `reply_broadcast`), for what people must see. */
  readonly broadcast?: boolean | undefined;
}

export interface SlackPoster {
  post(message: SlackMessage): Promise<string>;
  update(message: SlackMessage & { readonly ts: string }): Promise<void>;
  upload(file: {
    channel: string;
    threadTs: string;
    filename: string;
    title: string;
    content: string;
    /** Posted with the file, as one message. */
    comment?: string | undefined;
  }): Promise<void>;
  /** A link to a message, for alerts that point at a job's thread. */
  permalink(channel: string, ts: string): string;
}

/**
 * Whether Slack answered a call with a definitive refusal (ok: false, e.g. channel_not_found):
 * trying again changes nothing. A timeout, a 5xx or a rate limit after the retries is not one.
 */
export function isSlackRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'slack_webapi_platform_error';
}
