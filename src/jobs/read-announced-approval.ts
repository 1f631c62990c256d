import type { Clock } from '../lifecycle/ports/clock.js';
import type { StoredApproval } from './ports/approval-announcer.js';

// The request is saved, then posted, then its message's ts is saved: a click that comes as the
// message appears (a quick approver, a slow Redis write) waits this long for the ts to be known.
const ANNOUNCE_WAIT_MS = 5_000;
const ANNOUNCE_POLL_MS = 20;

/**
 * A step's approval, read again until a pending one has its message's ts (or the wait is over), so
 * a click is not refused as never shown for coming a moment before that ts was saved. Every approval
 * book reads a click's approval through it (Redis's, the unit tests' memory one), so they wait alike.
 */
export async function readAnnouncedApproval<T extends { readonly stored: StoredApproval | undefined }>(
  read: () => Promise<T>,
  clock: Clock,
): Promise<T> {
  const deadline = clock.now() + ANNOUNCE_WAIT_MS;
  for (;;) {
    const found = await read();
    const announcing = found.stored?.state.status === 'pending' && found.stored.messageTs === undefined;
    if (!announcing || clock.now() >= deadline) return found;
    await clock.sleep(ANNOUNCE_POLL_MS);
  }
}
