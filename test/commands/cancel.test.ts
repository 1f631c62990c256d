import { describe, expect, it } from 'vitest';
import { cancel } from '../../src/commands/cancel.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('cancel', () => {
  it('asks to cancel the job number given, with or without #', async () => {
    const { context, asked } = await commandContext();
    expect(await cancel(['12'], context)).toEqual({ kind: 'cancelling', number: 12 });
    await cancel(['#7'], context);
    expect(asked()).toEqual([
      { op: 'cancel', args: [ACTOR, '12'] },
      { op: 'cancel', args: [ACTOR, '7'] },
    ]);
  });

  it('passes the service refusal on (no such job, not the requester)', async () => {
    const refusal = { code: 'NOT_CANCELLER', cluster: 'prod', number: 3 } as const;
    const { context } = await commandContext({ cancel: async () => refusal });
    expect(await cancel(['3'], context)).toEqual(refusal);
  });

  it.each([[], ['job-3'], ['1', '2'], ['1234567890']])('refuses %s with its usage', async (...words) => {
    const { context, asked } = await commandContext();
    expect(await cancel(words, context)).toEqual({ code: 'USAGE', verb: 'cancel' });
    expect(asked()).toEqual([]);
  });
});
