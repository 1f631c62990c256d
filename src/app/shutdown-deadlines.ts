import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Past the grace period, how long the shutdown's last calls may take (the outbox leases released in
 * Redis, the App Home's round published to Slack): milliseconds when both answer. What does not answer
 * by then is given up, saying so, and nothing is lost: a lease lapses and another process takes the
 * outbox over. Kubernetes' terminationGracePeriodSeconds must outlast the grace by this much.
 */
export const SHUTDOWN_ALLOWANCE_MS = 3_000;

export interface ShutdownDeadlines {
  /** Epoch ms: running jobs and unsent threads are left to another process from then. */
  readonly graceOver: number;
  /** Epoch ms: what still waits (on Redis, on Slack) is given up, and the process exits. */
  readonly giveUpAt: number;
}

/** The deadlines of a shutdown starting at `now` with a grace period of `graceSeconds`. */
export function shutdownDeadlines(graceSeconds: number, now: number): ShutdownDeadlines {
  const graceOver = now + graceSeconds * 1_000;
  return { graceOver, giveUpAt: graceOver + SHUTDOWN_ALLOWANCE_MS };
}

/** True once `work` resolved, false if `deadline` (epoch ms) came first: waits no longer. A rejection goes through. */
export async function settledBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  const late = sleep(Math.max(0, deadline - Date.now()), false, { ref: false });
  return Promise.race([work.then(() => true), late]);
}
