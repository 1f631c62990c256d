import { describe, expect, it } from 'vitest';
import { approvalReminderTimes } from '../../src/jobs/approval-reminder-times.js';

const MIN = 60_000;

describe('when a pending approval reminds its approvers', () => {
  it('at half its time and five minutes before it expires', () => {
    expect(approvalReminderTimes(0, 30 * MIN)).toEqual([15 * MIN, 25 * MIN]);
  });

  it('once, at half, when five minutes before the expiry would not come after it', () => {
    expect(approvalReminderTimes(0, 10 * MIN)).toEqual([5 * MIN]);
    expect(approvalReminderTimes(1_000, 21_000)).toEqual([11_000]);
  });
});
