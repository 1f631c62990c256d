import { ansibleConfigProblem } from '../ansible/ansible-config-problem.js';
import type { HostPrecondition } from './precondition.js';

/** Ansible runs with the repo's own ansible.cfg, the settings the approval and the checks are about. */
export const ansibleConfigPinned: HostPrecondition = {
  label: "the repo's ansible.cfg",
  readsRepo: false,
  async check(ctx) {
    const problem = await ansibleConfigProblem(ctx);
    return problem === undefined ? [] : [problem];
  },
};
