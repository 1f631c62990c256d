import { ClusterBotError } from '../../errors.js';
import { describeCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';
import type { Step } from '../plan/step.js';
import { describePlan } from './describe-plan.js';

/**
 * `plan <command>` as a read-only job: every check each step of the plan would make before changing
 * anything, run now against the infra repo and the cluster, with every refusal listed.
 */
export function planCheckStep(id: string, plan: Plan): Step {
  const what = describeCommand(plan.command);
  return {
    id,
    title: 'check the plan',
    target: `${what}: each step's checks, nothing run`,
    async run(ctx) {
      await ctx.note(describePlan(plan));
      const refusals: string[] = [];
      let checked = 0;
      for (const [index, step] of plan.steps.entries()) {
        if (!step.check) continue;
        checked++;
        for (const refusal of await step.check(ctx)) {
          refusals.push(`${index + 1}. ${step.title}: ${refusal}`);
          await ctx.progress(`✗ ${index + 1}. ${step.title}: ${refusal}`);
        }
      }
      if (refusals.length > 0) {
        const s = refusals.length > 1 ? 's' : '';
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `\`${what}\` would be refused (${refusals.length} problem${s}): ${refusals.join('; ')}`,
          { details: { failures: refusals } },
        );
      }
      return {
        status: 'succeeded',
        summary: `\`${what}\` passes the checks of its ${checked} checked steps; its ⚠ steps still ask for approval`,
      };
    },
  };
}
