import type { ApprovalRequest } from '../lifecycle/ports/approval-desk.js';

/**
 * Why a request may be approved only where it is read whole (its message in the job's thread), in
 * words for the App Home: a warning (an interrupted step, a moved repo), what a restore loses, or
 * something to compare outside the bot (a new host key). Undefined when a summary and a confirm
 * dialog show all it asks a person to weigh.
 */
export function whyDecideInThread(request: ApprovalRequest | undefined): string | undefined {
  if (!request) return 'its request could not be read';
  const reasons = [
    request.compare,
    request.warning ? 'it carries a warning' : undefined,
    request.binding.consequence ? 'it says what is lost' : undefined,
    request.previousCommit ? 'the infra repo moved since the last approval' : undefined,
  ].filter((reason): reason is string => Boolean(reason));
  return reasons.length > 0 ? reasons.join(', ') : undefined;
}
