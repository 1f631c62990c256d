import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { readGates } from './read-gates.js';
import { STANDING_GATES, VERIFY_GATES } from './verify-gates.js';
import { waitForGates } from './wait-for-gates.js';

/**
 * `one-read`: the state as it is now (the verify command and the schedule: a node down is news at
 * once), backups included. `until-converged`: after a change (bring-up, rollout, re-join), the gates get the cluster's
 * gate timeout to come true.
 */
export type VerifyMode = 'one-read' | 'until-converged';

/**
 * What the job's last gate read found, kept as a job fact so the job's settle records it as the
 * cluster's last verify: a bring-up or a rollout that read the gates verified the cluster too.
 */
export const GATES_READ_FACT = 'gatesRead';

export interface GatesRead {
  readonly passed: boolean;
  readonly summary: string;
}

/** Verify gates; each failure alerts. */
export function verifyGatesStep(id: string, cluster: string, mode: VerifyMode = 'until-converged'): Step {
  return {
    id,
    title: mode === 'one-read' ? 'verify gates (one read)' : 'verify gates',
    target: `${cluster} (Kubernetes API, k3s config of each server)`,
    async run(ctx) {
      const outcomes =
        mode === 'one-read'
          ? await readGates(ctx, STANDING_GATES)
          : await waitForGates(ctx, VERIFY_GATES, ctx.cluster.timeouts.gate);
      for (const outcome of outcomes) {
        await ctx.progress(`${outcome.passed ? '✓' : '✗'} ${outcome.gate}: ${outcome.observed}`);
      }
      const failed = outcomes.filter((outcome) => !outcome.passed);
      const summary =
        failed.length > 0
          ? failed.map((outcome) => `${outcome.gate}: ${outcome.observed}`).join('; ')
          : outcomes.map((outcome) => outcome.observed).join(', ');
      await ctx.facts.set(GATES_READ_FACT, { passed: failed.length === 0, summary } satisfies GatesRead);
      for (const outcome of failed) await ctx.gateFailed(outcome.gate, outcome.observed);
      if (failed.length > 0)
        throw new ClusterBotError('GATE_FAILED', summary, { details: { gates: failed } });
      return { status: 'succeeded', summary };
    },
  };
}
