import { describe, expect, it } from 'vitest';
import {
  BARE_ID_PLAN,
  OWN_PLAN,
  REBUILT_RESOURCE,
  startTofuRebuildJob,
} from '../support/tofu-rebuild-job.js';

describe('the plan saved for a VM rebuild', () => {
  it.each(['rejected', 'expired'] as const)(
    'is deleted from the ops host once the rebuild is %s, and only it',
    async (decision) => {
      const { host, approvals, run } = await startTofuRebuildJob();
      const foreign = { resource: REBUILT_RESOURCE, by: 'another deployment' };
      host.plans.set(BARE_ID_PLAN, foreign);

      expect(await run()).toMatchObject({ status: 'waiting', stepId: '1-rebuild' });
      expect(host.plans.get(OWN_PLAN)).toEqual({ resource: REBUILT_RESOURCE, by: 'this job' });
      // Rejected by an approver, or expired (as the desk marks it once its time is up).
      if (decision === 'rejected') approvals.reject('1-rebuild');
      else await approvals.desk.expire('approval-1');

      expect(await run()).toMatchObject({ status: 'finished', outcome: decision });
      expect([...host.plans]).toEqual([[BARE_ID_PLAN, foreign]]);
      expect(host.applied).toEqual([]);
    },
  );
});
