/** The Slack calls the bot makes, behind one narrow interface (WebClient in production, anything in tests). */
export interface SlackMessage {
  readonly channel: string;
  readonly text: string;
  readonly blocks?: readonly unknown[] | undefined;
  readonly threadTs?: string | undefined;
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
