import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { verify } = VERBS;

describe('verify', () => {
  it('submits `verify <cluster>` for the actor', async () => {
    const { context, asked } = await commandContext();
    expect(await verify(['dev'], context)).toMatchObject({ kind: 'queued', cluster: 'dev' });
    expect(asked()).toEqual([{ op: 'submit', args: [ACTOR, { verb: 'verify', cluster: 'dev' }, false] }]);
  });

  it('refuses a cluster the config does not know, with the nearest one', async () => {
    const { context, asked } = await commandContext();
    expect(await verify(['prd'], context)).toMatchObject({ code: 'COMMAND_INVALID', suggestion: 'prod' });
    expect(asked()).toEqual([]);
  });
});
