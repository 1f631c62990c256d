import { closestMatch } from '../lifecycle/command/closest-match.js';
import { operatorsOnly } from './operators-only.js';
import type { CommandContext, CommandReply, VerbHandler } from './verb-handler.js';
import { isVerb, VERBS } from './verbs.js';

/** A word no verb answers to: refused with the nearest verb, the rest of the line kept. */
function unknownVerb(verb: string): VerbHandler {
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
 * One `/cluster …` line in, one typed answer out: the person's rate limit first (before anything
 * that costs a Slack call or a job), then the verb's handler. An empty line asks for help.
 */
export async function runCommand(text: string, context: CommandContext): Promise<CommandReply> {
  const limited = await context.service.takeCommand(context.actor);
  if (limited) return limited;
  const [first, ...words] = text.trim().split(/[ \t]+/);
  const verb = first || 'help';
  const handler = isVerb(verb) ? VERBS[verb] : unknownVerb(verb);
  return handler(words, context);
}
