import type {
  ApprovalDesk,
  ApprovalRequest,
  ApprovalState,
} from '../../src/lifecycle/ports/approval-desk.js';

/** An approval desk whose decisions the test makes, as an approver would by clicking. */
export function createMemoryApprovalDesk(options: { timeoutMs?: number; now?: () => number } = {}) {
  const states = new Map<string, ApprovalState>();
  const requests: ApprovalRequest[] = [];
  const voided: { id: string; reason: string }[] = [];
  let next = 1;
  const now = options.now ?? Date.now;
  const desk: ApprovalDesk = {
    state: async (stepId) => states.get(stepId) ?? { status: 'none' },
    async request(request) {
      requests.push(request);
      const id = `approval-${next++}`;
      const expiresAt = now() + (options.timeoutMs ?? 30 * 60_000);
      states.set(request.stepId, {
        status: 'pending',
        id,
        fingerprint: request.binding.fingerprint,
        expiresAt,
      });
      return { id, expiresAt };
    },
    async expire(id) {
      for (const [stepId, state] of states)
        if (state.status !== 'none' && state.id === id) states.set(stepId, { status: 'expired', id });
    },
    async void(id, reason) {
      voided.push({ id, reason });
      for (const [stepId, state] of states)
        if (state.status !== 'none' && state.id === id) states.set(stepId, { status: 'void', id });
    },
  };
  const pendingFor = (stepId: string) => {
    const state = states.get(stepId);
    if (state?.status !== 'pending') throw new Error(`no pending approval for ${stepId}`);
    return state;
  };
  return {
    desk,
    requests,
    voided,
    approve(stepId: string, by = 'U0BOB') {
      const state = pendingFor(stepId);
      states.set(stepId, { status: 'approved', id: state.id, fingerprint: state.fingerprint, by: [by] });
    },
    reject(stepId: string, by = 'U0BOB') {
      states.set(stepId, { status: 'rejected', id: pendingFor(stepId).id, by });
    },
  };
}
