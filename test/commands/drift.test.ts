import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { drift } = VERBS;

describe('drift', () => {
  it('submits the read-only drift check of a cluster', async () => {
    const { context, asked } = await commandContext();
    expect(await drift(['dev'], context)).toMatchObject({ kind: 'queued' });
    expect(asked()).toEqual([{ op: 'submit', args: [ACTOR, { verb: 'drift', cluster: 'dev' }, false] }]);
  });

  it('refuses --queue (a check takes no lease) and an unknown cluster', async () => {
    const { context, asked } = await commandContext();
    expect(await drift(['dev', '--queue'], context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(await drift(['stage'], context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(asked()).toEqual([]);
  });
});
