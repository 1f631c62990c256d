import type { ApprovalRequest } from '../../src/lifecycle/ports/approval-desk.js';

/** A plain request for dev's Cilium rollout: no warning, nothing lost, nothing to compare. */
export const CILIUM_REQUEST: ApprovalRequest = {
  stepId: '2-cilium',
  stepTitle: 'cilium.yml',
  cluster: 'dev',
  reason: 'rolls the Cilium agents node by node',
  binding: { commandLine: 'ansible-playbook playbooks/cilium.yml', targets: 'dev', fingerprint: 'f1' },
};
