import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('runCommand', () => {
  it('admits the command first: over the limit, nothing else is asked', async () => {
    const { context, calls } = await commandContext({
      admitCommand: async () => ({ code: 'RATE_LIMITED', perMinute: 3 }),
    });
    expect(await runCommand('status dev', context, 'command:T1')).toEqual({
      code: 'RATE_LIMITED',
      perMinute: 3,
    });
    expect(calls).toEqual([
      { op: 'admitCommand', args: [{ userId: ACTOR.userId, deliveryKey: 'command:T1' }] },
    ]);
  });

  it("hands a submitting verb's admission to its job's write, and admits nothing else", async () => {
    const { context, calls } = await commandContext();
    await runCommand('verify dev', context, 'command:T2');
    expect(calls.map((call) => call.op)).toEqual(['admit', 'submit']);
    expect(calls[1]?.args[3]).toEqual({ userId: ACTOR.userId, deliveryKey: 'command:T2' });
  });

  it('admits a submitting verb refused before its job, so a repeat of it still answers nothing', async () => {
    const { context, calls } = await commandContext({
      admitCommand: async () => ({ code: 'REPEATED_DELIVERY' }),
    });
    expect(await runCommand('verify nowhere', context, 'command:T3')).toEqual({ code: 'REPEATED_DELIVERY' });
    expect(calls.map((call) => call.op)).toEqual(['admit', 'admitCommand']);
  });

  it('answers an empty line with the help', async () => {
    const { context } = await commandContext();
    expect(await runCommand('  ', context)).toEqual({ kind: 'help' });
  });

  it('hands the words after the verb to its handler', async () => {
    const { context, asked } = await commandContext();
    await runCommand(' cancel \t #4 ', context);
    expect(asked()).toEqual([{ op: 'cancel', args: [ACTOR, '4'] }]);
  });

  it('refuses an unknown verb with the nearest verb and the rest of the line, once admitted', async () => {
    const { context } = await commandContext();
    expect(await runCommand('stauts prod', context)).toEqual({
      code: 'UNKNOWN_VERB',
      verb: 'stauts',
      suggestion: 'status prod',
    });
    expect(await runCommand('xyzzy', context)).toEqual({ code: 'UNKNOWN_VERB', verb: 'xyzzy' });
    const refused = await commandContext({ admit: async () => ({ code: 'NOT_OPERATOR', user: 'U0ALICE' }) });
    expect(await runCommand('stauts', refused.context)).toEqual({ code: 'NOT_OPERATOR', user: 'U0ALICE' });
  });

  it('a typo in the console (no delivery key) is answered without counting toward the rate limit', async () => {
    const { context, calls } = await commandContext({
      admitCommand: async () => ({ code: 'RATE_LIMITED', perMinute: 3 }),
    });
    expect(await runCommand('stauts dev', context)).toMatchObject({
      code: 'UNKNOWN_VERB',
      suggestion: 'status dev',
    });
    expect(await runCommand('verify nowhere', context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(calls.map((call) => call.op)).not.toContain('admitCommand');
    // A real command is still limited, and a Slack delivery (its key remembered) of a typo is still admitted.
    expect(await runCommand('status dev', context)).toEqual({ code: 'RATE_LIMITED', perMinute: 3 });
    expect(await runCommand('stauts dev', context, 'command:T9')).toEqual({
      code: 'RATE_LIMITED',
      perMinute: 3,
    });
  });

  it('does not treat inherited object keys as verbs', async () => {
    const { context } = await commandContext();
    expect(await runCommand('constructor', context)).toMatchObject({ code: 'UNKNOWN_VERB' });
  });
});
