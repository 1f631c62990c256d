import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { reprovision } = VERBS;

describe('reprovision', () => {
  it("submits `reprovision <node>` with the node's cluster", async () => {
    const { context, asked } = await commandContext();
    await reprovision(['k3s-dev-2'], context);
    expect(asked()).toEqual([
      { op: 'submit', args: [ACTOR, { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-2' }, false] },
    ]);
  });

  it('refuses a node the config does not know', async () => {
    const { context, asked } = await commandContext();
    expect(await reprovision(['k3s-dev-9'], context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(asked()).toEqual([]);
  });
});
