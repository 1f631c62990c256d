import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/commands/verbs.js';
import { ACTOR, commandContext } from '../support/command-context.js';

const { cilium } = VERBS;

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

  it('submits a rollback (to the last good or a named revision) and resuming Flux as cilium modes', async () => {
    const { context, asked } = await commandContext();
    await cilium(['dev', '--rollback'], context);
    await cilium(['dev', '--rollback', '4', '--queue'], context);
    await cilium(['prod', '--resume-flux'], context);
    expect(asked()).toEqual([
      { op: 'submit', args: [ACTOR, { verb: 'cilium', cluster: 'dev', mode: { kind: 'rollback' } }, false] },
      {
        op: 'submit',
        args: [ACTOR, { verb: 'cilium', cluster: 'dev', mode: { kind: 'rollback', revision: 4 } }, true],
      },
      {
        op: 'submit',
        args: [ACTOR, { verb: 'cilium', cluster: 'prod', mode: { kind: 'resume-flux' } }, false],
      },
    ]);
  });

  it('refuses a revision that is not a number, and submits nothing', async () => {
    const { context, asked } = await commandContext();
    expect(await cilium(['dev', '--rollback', '$(id)'], context)).toMatchObject({
      code: 'COMMAND_INVALID',
      message: '--rollback takes a revision number from helm history, not "$(id)"',
    });
    expect(asked()).toEqual([]);
  });
});
