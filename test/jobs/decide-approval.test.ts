import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../src/jobs/decide-approval.js';
import type { ApprovalState } from '../../src/lifecycle/ports/approval-desk.js';

const pending: ApprovalState = { status: 'pending', id: 'a1', fingerprint: 'f', expiresAt: 1 };
const prod = { requiredApprovals: 2, allowSelfApproval: false };
const click = (userId: string, extra: Partial<Parameters<typeof decideApproval>[2]> = {}) => ({
  userId,
  decision: 'approve' as const,
  isApprover: true,
  requestedBy: 'U0ALICE',
  ...extra,
});

describe('approval rules', () => {
  it('prod needs two distinct approvers and refuses the requester', () => {
    expect(decideApproval(pending, [], click('U0ALICE'), prod)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/self-approval/),
    });
    expect(decideApproval(pending, [], click('U0BOB'), prod)).toEqual({
      kind: 'counted',
      approvals: ['U0BOB'],
      missing: 1,
    });
    expect(decideApproval(pending, ['U0BOB'], click('U0BOB'), prod)).toMatchObject({
      kind: 'already-counted',
      missing: 1,
    });
    expect(decideApproval(pending, ['U0BOB'], click('U0CAROL'), prod)).toEqual({
      kind: 'approved',
      approvals: ['U0BOB', 'U0CAROL'],
    });
  });

  it('a non-approver changes nothing; anyone allowed may reject at once', () => {
    expect(decideApproval(pending, [], click('U0MALLORY', { isApprover: false }), prod)).toMatchObject({
      kind: 'refused',
    });
    expect(decideApproval(pending, ['U0BOB'], click('U0ALICE', { decision: 'reject' }), prod)).toEqual({
      kind: 'rejected',
      by: 'U0ALICE',
    });
  });

  it('a decision on something no longer pending changes nothing', () => {
    for (const state of [
      { status: 'expired', id: 'a1' },
      { status: 'void', id: 'a1' },
      { status: 'rejected', id: 'a1', by: 'U0BOB' },
    ] as const) {
      expect(decideApproval(state, [], click('U0BOB'), prod)).toMatchObject({ kind: 'refused' });
    }
  });
});
