import { describe, expect, it } from 'vitest';
import { audit } from '../../src/commands/audit.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('audit', () => {
  it('asks for 10 entries by default, or the count given', async () => {
    const { context, asked } = await commandContext();
    await audit([], context);
    await audit(['50'], context);
    expect(asked()).toEqual([
      { op: 'audit', args: [ACTOR, 10] },
      { op: 'audit', args: [ACTOR, 50] },
    ]);
  });

  it.each([['0'], ['51'], ['2.5'], ['ten'], ['1', '2']])(
    'refuses %s with the allowed range',
    async (...words) => {
      const { context, asked } = await commandContext();
      expect(await audit(words, context)).toEqual({ code: 'USAGE', verb: 'audit', max: 50 });
      expect(asked()).toEqual([]);
    },
  );
});
