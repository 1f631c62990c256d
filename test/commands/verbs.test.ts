import { describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { isVerb, VERBS } from '../../src/commands/verbs.js';
import { LIFECYCLE_VERBS } from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import { helpText } from '../../src/wording/help-text.js';

describe('the verb registry', () => {
  it('has every lifecycle verb, and the help names every verb', () => {
    for (const verb of LIFECYCLE_VERBS) expect(isVerb(verb), verb).toBe(true);
    for (const verb of Object.keys(VERBS)) expect(helpText(MRKDWN), verb).toContain(`• \`${verb}`);
  });

  it('knows only its own keys', () => {
    expect(isVerb('toString')).toBe(false);
    expect(isVerb('__proto__')).toBe(false);
  });
});
