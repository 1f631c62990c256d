import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../../src/lifecycle/approval/decide-approval.js';
import type { ApprovalState } from '../../../src/lifecycle/ports/approval-desk.js';

const pending: ApprovalState = { status: 'pending', id: 'a1', fingerprint: 'f', expiresAt: 1 };
const prod = { requiredApprovals: 2, allowSelfApproval: false };
const click = (userId: string, extra: Partial<Parameters<typeof decideApproval>[2]> = {}) => ({
  userId,
  decision: 'approve' as const,
  isApprover: true,
  requestedBy: 'U0ALICE',
  at: 0,
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

  it('a click at or after the expiry is refused, though the worker has not marked it expired yet', () => {
    const open: ApprovalState = { ...pending, expiresAt: Date.UTC(2026, 10, 30, 14, 5) };
    for (const decision of ['approve', 'reject'] as const) {
      for (const at of [open.expiresAt, open.expiresAt + 60_000]) {
        expect(decideApproval(open, ['U0BOB'], click('U0CAROL', { decision, at }), prod)).toEqual({
          kind: 'refused',
          reason: 'this approval expired at 14:05 UTC',
        });
      }
    }
    expect(decideApproval(open, ['U0BOB'], click('U0CAROL', { at: open.expiresAt - 1 }), prod)).toMatchObject(
      {
        kind: 'approved',
      },
    );
  });
});
