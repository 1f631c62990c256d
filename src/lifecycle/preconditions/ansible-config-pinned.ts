import { ansibleConfigProblem } from '../ansible/ansible-config-problem.js';
import type { Precondition } from './precondition.js';

/** Ansible runs with the repo's own ansible.cfg, the settings the approval and the checks are about. */
export const ansibleConfigPinned: Precondition = {
  label: "the repo's ansible.cfg",
  async check(ctx) {
    const problem = await ansibleConfigProblem(ctx);
    return problem === undefined ? [] : [problem];
  },
};
