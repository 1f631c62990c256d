/**
 * What src/delivery offers the edge, and all the edge may import of it (no Redis here): the bot
 * words a job's thread as operations (its serialised Slack calls, which delivery never reads) and
 * appends them; delivery keeps them in order in Redis and hands each, once, to the edge's sender
 * (`startDrainer`, create-delivery.ts), from whichever process holds the job's outbox.
 * See docs/delivery.md.
 */
export interface Delivery {
  /**
   * Appends `ops` to the job's outbox now (so a step's appends leave with its checkpoint, in the
   * process's one pipeline) and returns: Redis trouble never fails the caller. With `state`, the
   * thread's state is saved in the same write. Appends are numbered: a retried one is stored
   * once, and a failed one is resent, in order, before those after it.
   */
  append(jobId: string, ops: readonly string[], state?: () => ThreadState): void;
  /** Resolves once everything this process appended for the job is in its outbox (or given up). */
  appended(jobId: string): Promise<void>;
  /**
   * Resolves once the job's outbox is empty (every operation sent, or refused by Slack), or its
   * deadline passed: a hung Slack must not hold the job's worker slot.
   */
  delivered(jobId: string): Promise<void>;
}

/**
 * A job's thread state as the edge keeps it, saved beside its outbox so another worker carries on
 * the same thread. Its root message's ts is the sender's to record (ThreadMessages), never saved
 * from here: a worker's copy may be older than what the sender posted.
 */
export interface ThreadState {
  readonly threadTs?: string | undefined;
}

/**
 * Sends one operation of a job's outbox; `later` are the ones queued after it, so an edit a later one
 * replaces can be skipped. `held`: the job's messages' ts as the process holding its outbox knows
 * them (HeldMessages); without it, each is read from Redis. Slack refusing the operation is the
 * sender's to log (it resolves); any other failure rejects, and the operation is tried again.
 */
export type ThreadOpSender = (
  jobId: string,
  op: string,
  later: readonly string[],
  held?: HeldMessages,
) => Promise<void>;

/**
 * The ts of a job's thread messages (by name, as ThreadMessages keeps them) in the memory of the
 * process holding the job's outbox: read from Redis in the claim's round trip, and each one kept
 * since added. Only the holder keeps new ones, so the copy stays whole while the lease lasts (one
 * kept by a holder that lost its lease meanwhile yields to the ts already recorded); it is
 * dropped with the lease (let go, lost or taken over), and the next holder reads its own.
 */
export type HeldMessages = Map<string, string>;

/** The name the thread's root message is kept under (ThreadMessages): the thread store reads it back. */
export const THREAD_ROOT = 'root';

/** The ts of a thread's messages that later operations edit or reply under (the root, each step's tail). */
export interface ThreadMessages {
  get(jobId: string, name: string): Promise<string | undefined>;
  /**
   * Records `ts` under `name` unless a ts is recorded there already, and resolves to the one
   * recorded: the first wins (a holder that lost its lease while posting must not replace the ts
   * its successor's messages went under), and the caller goes on with it.
   */
  record(jobId: string, name: string, ts: string): Promise<string>;
}

export interface SlackPacer {
  /** Resolves when a call of `method` (to `channel`) fits Slack's limits, and counts it. */
  take(method: string, channel?: string): Promise<void>;
}
