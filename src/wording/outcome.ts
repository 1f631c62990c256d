/** A job's outcome as every message names it, its state in front. */
export const OUTCOME: Readonly<Record<string, string>> = {
  succeeded: '✅ succeeded',
  failed: '❌ failed',
  rejected: '🚫 rejected',
  expired: '⌛ approval expired',
  cancelled: '🛑 cancelled',
};
