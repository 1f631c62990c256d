import { setTimeout as sleep } from 'node:timers/promises';
import type { JobPage } from '../service/index.js';

/** How long a page's data waits for names it does not know yet: a slow Slack shows ids, never a stuck page. */
const NAMES_WAIT_MS = 2_000;
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/** The Slack ids of the people a job's page names: who asked, who approved or rejected. */
export function peopleOf(page: JobPage): string[] {
  const ids = new Set([page.record.requestedBy]);
  for (const { state, approvals } of page.approvals) {
    for (const id of approvals ?? []) ids.add(id);
    if (state.status === 'rejected') ids.add(state.by);
    if (state.status === 'approved') for (const id of state.by) ids.add(id);
  }
  return [...ids].filter((id) => USER_ID.test(id));
}

/**
 * The names of the page's people known within NAMES_WAIT_MS (looked up side by side; one not found,
 * failed or late is left out, and the page shows the id alone).
 */
export async function namesOfPeople(
  page: JobPage,
  userName: (userId: string) => Promise<string | undefined>,
): Promise<Record<string, string>> {
  const late = sleep(NAMES_WAIT_MS, undefined, { ref: false });
  const ids = peopleOf(page);
  const names = await Promise.all(ids.map((id) => Promise.race([userName(id).catch(() => undefined), late])));
  return Object.fromEntries(
    ids.flatMap((id, i) => (names[i] && names[i] !== id ? [[id, names[i]] as const] : [])),
  );
}
