import type { Admission } from '../service/index.js';
import type { HandleWords, VerbHandler } from './verb-handler.js';

/**
 * A verb run inside the command's admission (a repeated delivery, `deliveryKey` seen before, is
 * REPEATED_DELIVERY; the person's rate limit). A verb is admitted first, except one that submits a
 * job: it is admitted in the job's own write, one round trip for the lot, after the checks that
 * cost nothing but the config (and group members, cached). A submitting verb that refused before
 * handing the admission on is admitted then (the service admits the refusals it makes itself), so a
 * refusal is counted and a repeat still answers nothing. A handler that `onlyRefuses` (an unknown
 * verb) is admitted after it answered, like a submitting verb.
 */
export function admitted(
  handler: HandleWords & Pick<VerbHandler, 'submitsJob'> & { readonly onlyRefuses?: true },
  deliveryKey: string | undefined,
): HandleWords {
  return async (words, context) => {
    const admission = pendingAdmission({ userId: context.actor.userId, deliveryKey });
    const admit = async () => {
      const unclaimed = admission.claim();
      return unclaimed && context.service.admitCommand(unclaimed);
    };
    if (!handler.submitsJob && !handler.onlyRefuses) {
      const refused = await admit();
      if (refused) return refused;
    }
    const handled = await handler(words, { ...context, admission });
    // A typo with no delivery to remember (the console) is not counted: it cost nothing but the config.
    if (deliveryKey === undefined && isTypo(handled)) return handled;
    return (await admit()) ?? handled;
  };
}

/** Words the config alone refused: an unknown verb, a line that does not parse, a wrong cluster or flag. */
const TYPOS: ReadonlySet<string> = new Set(['UNKNOWN_VERB', 'COMMAND_INVALID', 'USAGE']);

function isTypo(reply: Awaited<ReturnType<HandleWords>>): boolean {
  return 'code' in reply && TYPOS.has(reply.code);
}

/** The admission, handed out once: to the job's write, or to `admitCommand`. */
function pendingAdmission(admission: Admission) {
  let pending: Admission | undefined = admission;
  return {
    claim() {
      const claimed = pending;
      pending = undefined;
      return claimed;
    },
  };
}
