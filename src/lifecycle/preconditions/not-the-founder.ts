import { founderProcedure } from './founder-procedure.js';
import type { Precondition } from './precondition.js';

/** Reprovisioning the founder is always refused: the inventory must name another founder first. */
export function notTheFounder(node: string): Precondition {
  return {
    label: `${node} is not the founder`,
    check: async (_ctx, repo) =>
      repo.primary?.members.includes(node)
        ? [founderProcedure(node, `the ${repo.primary.group} group in hosts.ini`)]
        : [],
  };
}
