import { closestMatch } from '../lifecycle/command/closest-match.js';
import { type Admission, isRightsRefusal } from '../service/index.js';
import { operatorsOnly } from './operators-only.js';
import type { CommandContext, CommandReply, HandleWords, VerbHandler } from './verb-handler.js';
import { isVerb, VERBS } from './verbs.js';

/** A word no verb answers to: refused with the nearest verb, the rest of the line kept. */
function unknownVerb(verb: string): HandleWords {
  return operatorsOnly(async (words) => {
    const suggestion = closestMatch(verb, Object.keys(VERBS));
    return {
      code: 'UNKNOWN_VERB',
      verb: verb.slice(0, 40),
      suggestion: suggestion && [suggestion, ...words].join(' '),
    };
  });
}

/**
 * One `/cluster …` line in, one typed answer out. The command is admitted first (a repeated
 * delivery, `deliveryKey` seen before, is REPEATED_DELIVERY; the person's rate limit), except for a
 * verb that submits a job: it is admitted in the job's own write, one round trip for the lot, after
 * the checks that cost nothing but the config (and group members, cached). A submitting verb that
 * refused before handing the admission on is admitted then (the service admits the refusals it
 * makes itself), so a refusal is counted and a repeat still answers nothing. An empty line asks for help.
 * A command refused for want of rights is audited once admitted (so within the rate limit).
 */
export async function runCommand(
  text: string,
  context: CommandContext,
  deliveryKey?: string,
): Promise<CommandReply> {
  const [first, ...words] = text.trim().split(/[ \t]+/);
  const verb = first || 'help';
  const handler: HandleWords & Pick<VerbHandler, 'submitsJob'> = isVerb(verb)
    ? VERBS[verb]
    : unknownVerb(verb);
  const admission = pendingAdmission({ userId: context.actor.userId, deliveryKey });
  const admit = async () => {
    const unclaimed = admission.claim();
    return unclaimed && context.service.admitCommand(unclaimed);
  };
  if (!handler.submitsJob) {
    const refused = await admit();
    if (refused) return refused;
  }
  const handled = await handler(words, { ...context, admission });
  const reply = (await admit()) ?? handled;
  if ('code' in reply && isRightsRefusal(reply))
    await context.service.auditRefusal(context.actor, text.trim(), reply);
  return reply;
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
