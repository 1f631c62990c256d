import { describe, expect, it } from 'vitest';
import { rerun } from '../../src/commands/rerun.js';
import { runCommand } from '../../src/commands/run-command.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('rerun', () => {
  it('asks the service to re-run the job number given, with or without #, handing it the admission', async () => {
    const { context, asked } = await commandContext();
    const admission = { userId: ACTOR.userId, deliveryKey: 'command:t1' };
    expect(await rerun(['12'], { ...context, admission: { claim: () => admission } })).toMatchObject({
      kind: 'queued',
      number: 3,
    });
    await rerun(['#7'], context);
    expect(asked()).toEqual([
      { op: 'rerun', args: [ACTOR, { number: '12' }, admission] },
      { op: 'rerun', args: [ACTOR, { number: '7' }] },
    ]);
  });

  it('passes the service refusals on: not failed, re-run already, not an operator of its cluster', async () => {
    for (const refusal of [
      { code: 'RERUN_REFUSED', why: 'not-failed', number: 4, outcome: 'succeeded' },
      { code: 'RERUN_REFUSED', why: 'already-rerun', number: 4, rerun: 5 },
      { code: 'NOT_OPERATOR', user: ACTOR.userId, cluster: 'prod' },
    ] as const) {
      const { context } = await commandContext({ rerun: async () => refusal });
      expect(await rerun(['4'], context)).toEqual(refusal);
    }
  });

  it('someone who may not use the bot is refused before the words are read', async () => {
    const denied = { code: 'NOT_OPERATOR', user: 'U0MALLORY' } as const;
    const { context, calls } = await commandContext({ admit: async () => denied });
    expect(await rerun(['4'], context)).toEqual(denied);
    expect(calls.map((call) => call.op)).toEqual(['admit']);
  });

  it.each([[], ['job-3'], ['1', '2'], ['1234567890'], ['up']])(
    'refuses %s with its usage, asking nothing',
    async (...words) => {
      const { context, asked } = await commandContext();
      expect(await rerun(words, context)).toEqual({ code: 'USAGE', verb: 'rerun' });
      expect(asked()).toEqual([]);
    },
  );

  it('/cluster rerun 4 reaches it through the registry, admitted once with the job', async () => {
    const { context, calls } = await commandContext();
    const reply = await runCommand('rerun 4', context, 'command:t2');
    expect(reply).toMatchObject({ kind: 'queued' });
    expect(calls.filter((call) => call.op !== 'admit')).toEqual([
      { op: 'rerun', args: [ACTOR, { number: '4' }, { userId: ACTOR.userId, deliveryKey: 'command:t2' }] },
    ]);
  });
});
