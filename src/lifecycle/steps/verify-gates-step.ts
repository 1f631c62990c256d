import { ClusterBotError } from '../../errors.js';
import { VERIFY_GATES } from '../gates/verify-gates.js';
import { waitForGates } from '../gates/wait-for-gates.js';
import type { Step } from '../plan/step.js';

/** Verify gates: every gate must pass within the cluster's gate timeout; each failure alerts. */
export function verifyGatesStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'verify gates',
    target: `${cluster} (Kubernetes API)`,
    async run(ctx) {
      const outcomes = await waitForGates(ctx, VERIFY_GATES, ctx.cluster.timeouts.gate);
      for (const outcome of outcomes) {
        await ctx.progress(`${outcome.passed ? '✓' : '✗'} ${outcome.gate}: ${outcome.observed}`);
      }
      const failed = outcomes.filter((outcome) => !outcome.passed);
      for (const outcome of failed) await ctx.gateFailed(outcome.gate, outcome.observed);
      if (failed.length > 0) {
        throw new ClusterBotError(
          'GATE_FAILED',
          failed.map((outcome) => `${outcome.gate}: ${outcome.observed}`).join('; '),
          { details: { gates: failed } },
        );
      }
      return { status: 'succeeded', summary: outcomes.map((outcome) => outcome.observed).join(', ') };
    },
  };
}
