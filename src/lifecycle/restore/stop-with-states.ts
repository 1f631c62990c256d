import { isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { describeServerStates } from './server-states.js';

/**
 * A restore step that, when it fails, leaves the thread what an operator needs to go on by hand:
 * every server's state as it is now, and what to do from there. The job stops at it (the failure
 * goes on up); a cancel is no failure.
 */
export function stopWithStates(step: Step, byHand: (ctx: StepContext) => string): Step {
  return {
    ...step,
    async run(ctx) {
      try {
        return await step.run(ctx);
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
        const states = await describeServerStates(ctx).catch((why: unknown) => [
          `could not read the servers' state: ${(why as Error).message}`,
        ]);
        await ctx.note(
          `The restore stopped at ${step.title}. Every server now:\n${states.join('\n')}\nBy hand from here: ${byHand(ctx)}`,
        );
        throw error;
      }
    },
  };
}
