import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { packages } = VERBS;

describe('packages', () => {
  it("submits `packages <node>` with the node's cluster", async () => {
    const { context, asked } = await commandContext();
    await packages(['k3s-dev-2'], context);
    expect(asked()).toEqual([
      { op: 'submit', args: [ACTOR, { verb: 'packages', cluster: 'dev', node: 'k3s-dev-2' }, false] },
    ]);
  });

  it('refuses a node the config does not know', async () => {
    const { context, asked } = await commandContext();
    expect(await packages(['k3s-dev-9'], context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(asked()).toEqual([]);
  });
});
