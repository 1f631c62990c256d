import type { BoardState } from '../../jobs/ports/job-thread.js';

/**
 * One Slack call of a job's thread as its outbox keeps it (JSON in Redis), worded when it was
 * queued. What only exists once earlier ones were sent (the root's ts, a tail's ts, the log's
 * upload) is looked up when it is sent (create-thread-op-sender.ts).
 */
export type ThreadOp =
  /** The thread's root message: the board. */
  | { readonly kind: 'root'; readonly channel: string; readonly board: BoardState }
  /** The board edited in place; a later board edit replaces an unsent one. */
  | { readonly kind: 'board'; readonly channel: string; readonly board: BoardState }
  | { readonly kind: 'reply'; readonly channel: string; readonly text: string }
  /** A step's live output: posted on its first line, then edited. */
  | { readonly kind: 'tail'; readonly channel: string; readonly stepId: string; readonly text: string }
  /** A failed gate, in the alerts channel, linking the thread. */
  | {
      readonly kind: 'alert';
      readonly channel: string;
      readonly threadChannel: string;
      readonly cluster: string;
      readonly jobNumber: number;
      readonly gate: string;
      readonly observed: string;
    }
  /** The outcome with the job's log attached. */
  | { readonly kind: 'final'; readonly channel: string; readonly jobNumber: number; readonly summary: string }
  /** A reply with buttons (the Roll back Cilium offer). */
  | { readonly kind: 'offer'; readonly channel: string; readonly text: string; readonly blocks: unknown[] };

/** The name a step's output tail is kept under in the thread's messages. */
export const tailName = (stepId: string) => `tail:${stepId}`;
