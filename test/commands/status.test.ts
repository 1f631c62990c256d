import { describe, expect, it } from 'vitest';
import { status } from '../../src/commands/status.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('status', () => {
  it('asks for every cluster, or the one named', async () => {
    const { context, asked } = await commandContext();
    await status([], context);
    await status(['prod'], context);
    expect(asked()).toEqual([
      { op: 'status', args: [ACTOR] },
      { op: 'status', args: [ACTOR, 'prod'] },
    ]);
  });

  it('refuses an unknown cluster or more words with the known clusters, asking nothing', async () => {
    const { context, asked } = await commandContext();
    const usage = { code: 'USAGE', verb: 'status', clusters: ['dev', 'prod'] };
    expect(await status(['staging'], context)).toEqual(usage);
    expect(await status(['dev', 'prod'], context)).toEqual(usage);
    expect(asked()).toEqual([]);
  });

  it('refuses someone not admitted before reading the words (no cluster names leak)', async () => {
    const refusal = { code: 'NOT_OPERATOR', user: 'U0ALICE' } as const;
    const { context, asked } = await commandContext({ admit: async () => refusal });
    expect(await status(['staging'], context)).toEqual(refusal);
    expect(asked()).toEqual([]);
  });
});
