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

/** Where appended operations sit: the appender's stream (one per job in a process, while it has appends in flight) and the first one's number in it. */
export interface OutboxSeq {
  readonly stream: string;
  readonly first: number;
}
