import { describe, expect, it } from 'vitest';
import { jobs } from '../../src/commands/jobs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('jobs', () => {
  it('asks the service for the recent jobs and answers them as they are', async () => {
    const { context, asked } = await commandContext();
    expect(await jobs([], context)).toEqual({ kind: 'jobs', jobs: [] });
    expect(asked()).toEqual([{ op: 'jobs', args: [ACTOR] }]);
  });

  it('refuses someone not admitted', async () => {
    const refusal = { code: 'WRONG_CHANNEL', channel: 'C0X', allowed: ['C0OPS'] } as const;
    const { context, asked } = await commandContext({ admit: async () => refusal });
    expect(await jobs([], context)).toEqual(refusal);
    expect(asked()).toEqual([]);
  });
});
