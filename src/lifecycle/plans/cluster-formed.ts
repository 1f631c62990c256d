import type { StepContext } from '../plan/step.js';

/**
 * k3s.yml's first run founds the cluster (on prod: the prod init). A cluster whose API answers with
 * registered nodes is formed; anything else, unreachable included, counts as a first run, which
 * errs on the side of asking.
 */
export async function isFirstRun(ctx: StepContext): Promise<boolean> {
  try {
    return (await ctx.kube.listNodes()).length === 0;
  } catch {
    return true;
  }
}
