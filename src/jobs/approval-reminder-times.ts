const FIVE_MINUTES = 5 * 60_000;

/**
 * When a pending approval reminds its approvers: once at half its time, once five minutes before it
 * expires, never more than these two. The second is dropped when it would not come after the first
 * (a request of ten minutes or less is reminded once).
 */
export function approvalReminderTimes(requestedAt: number, expiresAt: number): number[] {
  const half = requestedAt + Math.floor((expiresAt - requestedAt) / 2);
  const lastCall = expiresAt - FIVE_MINUTES;
  return lastCall > half ? [half, lastCall] : [half];
}
