import type { ThreadState } from './delivery.js';

/**
 * A job's thread outbox, kept in Redis: what the edge has still to send, in order, as operations
 * delivery does not read (the edge's serialised calls). A worker appends and goes on; any process
 * sends (create-outbox-drainer.ts), so a job's worker slot is free once its outcome is decided.
 */
export interface ThreadOutbox {
  /**
   * Appends `ops`, numbered from `at.first` in the appender's stream, in order; with `thread`, its
   * state is saved in the same write. Operations already in are skipped; rejects when an earlier
   * one is missing (the appender resends from its first unacknowledged operation).
   */
  append(jobId: string, ops: readonly string[], at: OutboxSeq, thread?: ThreadState): Promise<void>;
  /** Resolves once everything appended so far for the job has been sent (or given up), or its deadline passed. */
  delivered(jobId: string): Promise<void>;
}

/** Where appended operations sit: the appender's stream (one per writer, Delivery.thread, for its life) and the first one's number in it. */
export interface OutboxSeq {
  readonly stream: string;
  readonly first: number;
}

/**
 * The ts of a job's thread messages (by name, as ThreadMessages keeps them) in the memory of the
 * process holding the job's outbox: read from Redis in the claim's round trip, and each one kept
 * since added. Only the holder keeps new ones, so the copy stays whole while the lease lasts (one
 * kept by a holder that lost its lease meanwhile yields to the ts already recorded); it is
 * dropped with the lease (let go, lost or taken over), and the next holder reads its own.
 */
export type HeldMessages = Map<string, string>;

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
