import { isClusterBotError } from '../../errors.js';
import { adoptOpsHostKubeconfig } from '../kubeconfig/ops-host-kubeconfig.js';
import type { StepContext } from '../plan/step.js';

/**
 * The kubeconfig in use failed (a mounted one gone stale, and this worker, new or restarted, has
 * proved none of its own): fetch the ops host's, prove it and use it, saying in the thread which
 * kubeconfig the job now uses, or why the ops host's was not used. Silent when the repo names none
 * or it is not there (a cluster not formed yet). True when the gateway switched.
 */
export async function reachThroughOpsHost(ctx: StepContext, failure: Error): Promise<boolean> {
  const cluster = ctx.cluster.name;
  const inUse = `the kubeconfig in use does not reach ${cluster} (${failure.message})`;
  let fetched: Awaited<ReturnType<typeof adoptOpsHostKubeconfig>>;
  try {
    fetched = await adoptOpsHostKubeconfig(ctx);
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    fetched = { kind: 'refused', why: (error as Error).message };
  }
  if (fetched.kind === 'none') return false;
  if (fetched.kind === 'refused') {
    await ctx.note(
      `${inUse}, and ${fetched.relative ?? 'its kubeconfig'} from the ops host was not used: ${fetched.why}`,
    );
    return false;
  }
  await ctx.note(
    `${inUse}: now using ${fetched.relative} from the ops host, proved here (its server is one named for ${cluster}; ` +
      `it lists ${cluster}'s ${fetched.nodes} nodes), kept at ${fetched.keptAt} for this worker`,
  );
  return true;
}
