import { describe, expect, it } from 'vitest';
import { plan } from '../../src/commands/plan.js';
import { ACTOR, commandContext } from '../support/command-context.js';

describe('plan', () => {
  it('asks the service to plan the parsed command', async () => {
    const { context, asked } = await commandContext();
    expect(await plan(['cilium', 'dev'], context)).toEqual({
      kind: 'planned',
      steps: '1. a step',
      number: 1,
    });
    expect(asked()).toEqual([{ op: 'plan', args: [ACTOR, { verb: 'cilium', cluster: 'dev' }] }]);
  });

  it('refuses a command the config does not know, suggesting the nearest name behind `plan`', async () => {
    const { context, asked } = await commandContext();
    expect(await plan(['cilium', 'dve'], context)).toMatchObject({
      code: 'COMMAND_INVALID',
      message: expect.stringContaining('unknown cluster "dve"'),
      suggestion: 'plan dev',
    });
    expect(asked()).toEqual([]);
  });
});
