import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { health } = VERBS;

describe('health', () => {
  it('submits the diagnostic for a node or a whole cluster', async () => {
    const { context, asked } = await commandContext();
    await health(['k3s-prod-1'], context);
    await health(['dev'], context);
    expect(asked()).toEqual([
      { op: 'submit', args: [ACTOR, { verb: 'health', cluster: 'prod', node: 'k3s-prod-1' }, false] },
      { op: 'submit', args: [ACTOR, { verb: 'health', cluster: 'dev' }, false] },
    ]);
  });

  it('refuses --queue: a check takes no lease', async () => {
    const { context, asked } = await commandContext();
    expect(await health(['dev', '--queue'], context)).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(asked()).toEqual([]);
  });
});
