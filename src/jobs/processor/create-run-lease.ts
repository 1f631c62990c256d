import { randomUUID } from 'node:crypto';
import type { LeaseHolder } from '../cluster-lease.js';
import { LeaseLostError } from '../lease-lost-error.js';

/** One processor run's hold on its cluster's lease: who it is, and whether another start took it over. */
export interface RunLease {
  readonly holder: LeaseHolder;
  /** Taken by this start (a job cancelled while queued behind another never takes it, and renews nothing). */
  held: boolean;
  /** Aborts (with the LeaseLostError) once the lease is lost. */
  readonly signal: AbortSignal;
  readonly lost: boolean;
  /** Marks the lease lost (once); returns the error to throw. */
  lose(): LeaseLostError;
  /** Throws the LeaseLostError once the lease is lost: a taken-over start settles nothing. */
  throwIfLost(): void;
}

export function createRunLease(jobId: string): RunLease {
  const controller = new AbortController();
  const error = new LeaseLostError(jobId);
  return {
    holder: { jobId, attempt: randomUUID() },
    held: false,
    signal: controller.signal,
    get lost() {
      return controller.signal.aborted;
    },
    lose() {
      if (!controller.signal.aborted) controller.abort(error);
      return error;
    },
    throwIfLost() {
      if (controller.signal.aborted) throw error;
    },
  };
}
