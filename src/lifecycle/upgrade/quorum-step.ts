import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { quorumProblems } from '../preconditions/quorum-problems.js';

/** Right before a server goes down for its upgrade: every other etcd member is Ready, so quorum holds. */
export function quorumStep(id: string, server: string): Step {
  return {
    id,
    title: 'quorum check',
    target: server,
    check: (ctx) => quorumProblems(ctx, server),
    async run(ctx) {
      const problems = await quorumProblems(ctx, server);
      if (problems.length > 0) {
        throw new ClusterBotError('PRECONDITION_FAILED', problems.join('; '), {
          details: { failures: problems },
        });
      }
      return {
        status: 'succeeded',
        summary: `every other server Ready: etcd keeps quorum with ${server} down`,
      };
    },
  };
}
