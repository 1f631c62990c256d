import { closestMatch } from '../lifecycle/command/closest-match.js';
import { admitted } from './admitted.js';
import { auditRightsRefusals } from './audit-rights-refusals.js';
import { operatorsOnly } from './operators-only.js';
import type { CommandContext, CommandReply, HandleWords } from './verb-handler.js';
import { isVerb, VERBS } from './verbs.js';

/** A word no verb answers to: refused with the nearest verb, the rest of the line kept. */
function unknownVerb(verb: string): HandleWords & { readonly onlyRefuses: true } {
  const refuse = operatorsOnly(async (words) => {
    const suggestion = closestMatch(verb, Object.keys(VERBS));
    return {
      code: 'UNKNOWN_VERB',
      verb: verb.slice(0, 40),
      suggestion: suggestion && [suggestion, ...words].join(' '),
    };
  });
  return Object.assign(refuse, { onlyRefuses: true as const });
}

/**
 * One `/cluster …` line in, one typed answer out: the verb's handler inside the command's admission
 * (`admitted.ts`), its refusals for want of rights audited. An empty line asks for help.
 */
export async function runCommand(
  text: string,
  context: CommandContext,
  deliveryKey?: string,
): Promise<CommandReply> {
  const [first, ...words] = text.trim().split(/[ \t]+/);
  const verb = first || 'help';
  const handler = isVerb(verb) ? VERBS[verb] : unknownVerb(verb);
  return auditRightsRefusals(admitted(handler, deliveryKey), text.trim())(words, context);
}
