import { describe, expect, it } from 'vitest';
import { help } from '../../src/commands/help.js';
import { commandContext } from '../support/command-context.js';

describe('help', () => {
  it('answers the help without asking the service anything, not even who is asking', async () => {
    const { context, calls } = await commandContext({
      admit: async () => ({ code: 'NOT_OPERATOR', user: 'U0ALICE' }),
    });
    expect(await help(['anything'], context)).toEqual({ kind: 'help' });
    expect(calls).toEqual([]);
  });
});
