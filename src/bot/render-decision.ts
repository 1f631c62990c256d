import type { DecisionWords } from '../wording/describe-decision.js';

/** The decided request as Slack lays it out: who decided what and when over the command it covered, and no buttons. */
export function layOutDecision(words: DecisionWords): unknown[] {
  const command = words.command === undefined ? '' : `\n${words.command}`;
  return [{ type: 'section', text: { type: 'mrkdwn', text: `${words.text}${command}` } }];
}
