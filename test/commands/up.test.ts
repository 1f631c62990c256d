import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { up } = VERBS;

describe('up', () => {
  it('submits `up <cluster>` for the actor', async () => {
    const { context, asked } = await commandContext();
    expect(await up(['dev'], context)).toMatchObject({ kind: 'queued', cluster: 'dev' });
    expect(asked()).toEqual([{ op: 'submit', args: [ACTOR, { verb: 'up', cluster: 'dev' }, false] }]);
  });

  it('refuses a cluster the config does not know, with the nearest one', async () => {
    const { context, asked } = await commandContext();
    expect(await up(['prd'], context)).toMatchObject({ code: 'COMMAND_INVALID', suggestion: 'prod' });
    expect(asked()).toEqual([]);
  });
});

describe('up --queue', () => {
  it('asks to wait behind a busy cluster, and passes a busy refusal on', async () => {
    const busy = { code: 'BUSY', cluster: 'dev', holder: { id: 'job-1' }, command: 'up dev' } as const;
    const { context, asked } = await commandContext({ submit: async () => busy });
    expect(await up(['dev', '--queue'], context)).toEqual(busy);
    expect(asked()).toEqual([{ op: 'submit', args: [ACTOR, { verb: 'up', cluster: 'dev' }, true] }]);
  });
});
