import { describe, expect, it } from 'vitest';
import { cilium } from '../../src/commands/cilium.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('cilium', () => {
  it('submits `cilium <cluster>` for the actor', async () => {
    const { context, asked } = await commandContext();
    expect(await cilium(['dev'], context)).toMatchObject({ kind: 'queued', cluster: 'dev' });
    expect(asked()).toEqual([{ op: 'submit', args: [ACTOR, { verb: 'cilium', cluster: 'dev' }, false] }]);
  });

  it('refuses a cluster the config does not know, with the nearest one', async () => {
    const { context, asked } = await commandContext();
    expect(await cilium(['prd'], context)).toMatchObject({ code: 'COMMAND_INVALID', suggestion: 'prod' });
    expect(asked()).toEqual([]);
  });
});
