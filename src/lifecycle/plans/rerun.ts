import type { Step, StepContext } from '../plan/step.js';

/**
 * A read-only step run again inside another step's approval: the Cilium preflight must hold at the
 * commit being approved, and at every later commit an approval is asked again for. Its summary is
 * shown in the approval.
 */
export function rerun(step: Step): (ctx: StepContext) => Promise<string> {
  return async (ctx) => (await step.run(ctx)).summary;
}
