/**
 * What src/delivery offers the edge, and all the edge may import of it (no Redis here): the bot
 * words a job's thread as operations (its serialised Slack calls, which delivery never reads) and
 * appends them; delivery keeps them in order in Redis and hands each, once, to the edge's sender
 * (`startDrainer`, create-delivery.ts), from whichever process holds the job's outbox.
 * See docs/delivery.md.
 */
export interface Delivery {
  /**
   * A writer of the job's thread: what one run's thread reporter holds for its whole life. Its
   * appends are numbered in a stream of its own, so a writer that was taken over (fenced out, or
   * cut off from Redis and back) can never displace the stream of the run that shows the job now.
   */
  thread(jobId: string): ThreadAppends;
  /**
   * Resolves once the job's outbox is empty (every operation sent, or refused by Slack), or its
   * deadline passed: a hung Slack must not hold the job's worker slot.
   */
  delivered(jobId: string): Promise<void>;
}

/** One writer's appends to a job's outbox (Delivery.thread). */
export interface ThreadAppends {
  /**
   * Appends `ops` to the job's outbox now (so a step's appends leave with its checkpoint, in the
   * process's one pipeline) and returns: Redis trouble never fails the caller. With `state`, the
   * thread's state is saved in the same write. Appends are numbered: a retried one is stored
   * once, and a failed one is resent, in order, before those after it.
   */
  append(ops: readonly string[], state?: () => ThreadState): void;
  /** Resolves once everything this writer appended is in the job's outbox (or given up). */
  appended(): Promise<void>;
}

/**
 * A job's thread state as the edge keeps it, saved beside its outbox so another worker carries on
 * the same thread. Its root message's ts is the sender's to keep (SentMessages), never saved
 * from here: a worker's copy may be older than what the sender posted.
 */
export interface ThreadState {
  readonly threadTs?: string | undefined;
}

/**
 * Sends one operation of a job's outbox; `later` are the ones queued after it, so an edit a later one
 * replaces can be skipped; `messages`, the ts of the job's messages posted so far, where the ts of
 * one it posts is kept. Slack refusing the operation is the sender's to log (it resolves); any other
 * failure rejects, and the operation is tried again.
 */
export type ThreadOpSender = (
  jobId: string,
  op: string,
  later: readonly string[],
  messages: SentMessages,
) => Promise<void>;

/** The ts of a job's thread messages, by the name the sender gives each (the root: THREAD_ROOT; a step's tail). */
export interface SentMessages {
  /** The ts kept under `name`, or undefined while it was never posted. */
  get(name: string): Promise<string | undefined>;
  /**
   * Keeps the ts of a message just posted under `name` and resolves to the one kept: another's, should
   * a process that took the outbox over meanwhile have posted and kept its own (go on with that one).
   */
  keep(name: string, ts: string): Promise<string>;
  /** Another job's root (a re-run's board links the thread of the job it re-runs). */
  rootOf(jobId: string): Promise<string | undefined>;
}

/** The name the thread's root message is kept under (SentMessages): the thread store reads it back. */
export const THREAD_ROOT = 'root';

export interface SlackPacer {
  /** Resolves when a call of `method` (to `channel`) fits Slack's limits, and counts it. */
  take(method: string, channel?: string): Promise<void>;
}
