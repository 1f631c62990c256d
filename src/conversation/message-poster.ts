/**
 * A message as every edge posts it: its words in the edge's marks, and `blocks`, a transport's own
 * layout (Slack's Block Kit) that the others leave alone.
 */
export interface Message {
  readonly channel: string;
  readonly text: string;
  readonly blocks?: readonly unknown[] | undefined;
  readonly threadTs?: string | undefined;
  /** A thread reply also shown in the channel (Slack's `reply_broadcast`), for what people must see. */
  readonly broadcast?: boolean | undefined;
  /** The approval this message asks for, which its Approve/Reject answer (on a terminal, `approve N`). */
  readonly asks?: ApprovalAsked | undefined;
}

export interface ApprovalAsked {
  readonly approvalId: string;
  /** The approval in a few words, for a list of several: `job #4, cilium.yml`. */
  readonly title: string;
  /** The request whole, as the message lays it out above its buttons: the command line, commit, preview, who may approve. */
  readonly request: string;
}

/** Where threads, approvals and alerts go: Slack's Web API, or the console's terminal. */
export interface MessagePoster {
  post(message: Message): Promise<string>;
  update(message: Message & { readonly ts: string }): Promise<void>;
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
