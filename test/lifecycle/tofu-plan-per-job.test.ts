import { describe, expect, it } from 'vitest';
import type { StepsRun } from '../support/run-steps.js';
import {
  BARE_ID_PLAN,
  OWN_PLAN,
  REBUILT_RESOURCE,
  startTofuRebuildJob,
} from '../support/tofu-rebuild-job.js';

/** The rebuild asked and approved; `interrupted`: its worker then died before `tofu apply` started. */
async function approvedRebuild(record: Pick<StepsRun, 'folderTag'>, interrupted: boolean) {
  const job = await startTofuRebuildJob(record);
  expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '1-rebuild' });
  job.approvals.approve('1-rebuild');
  if (interrupted) {
    const approved = await job.approvals.desk.state('1-rebuild');
    await job.checkpoints.set('1-rebuild', {
      status: 'running',
      startedAt: 1,
      data: { approvalId: (approved as { id: string }).id },
    });
  }
  return job;
}

describe('the plan a VM rebuild saves is its job’s own', () => {
  it.each([
    ['approved while it waited', false],
    ['resumed after its worker died before the apply started', true],
  ])(
    'a rebuild %s applies the plan it showed, never the one another run of its job id saved meanwhile',
    async (_, interrupted) => {
      const { host, run } = await approvedRebuild({}, interrupted);
      // The same resource replaced: the approval's recheck alone cannot tell the two plans apart.
      const foreign = { resource: REBUILT_RESOURCE, by: 'another deployment' };
      host.plans.set(BARE_ID_PLAN, foreign);

      expect(await run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(host.applied).toEqual([{ file: OWN_PLAN, by: 'this job' }]);
      expect([...host.plans]).toEqual([[BARE_ID_PLAN, foreign]]);
    },
  );

  it('a job recorded before folder tags, resumed by this version, applies the plan it saved under its bare id', async () => {
    const { host, run } = await approvedRebuild({ folderTag: undefined }, true);
    expect(await run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(host.applied).toEqual([{ file: BARE_ID_PLAN, by: 'this job' }]);
    expect(host.plans.size).toBe(0);
  });
});
