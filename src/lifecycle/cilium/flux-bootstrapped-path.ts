import { posix } from 'node:path';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { FLUX_SOURCE } from './check-flux-source.js';

/** `flux bootstrap` names its Kustomization as its GitRepository: it applies `--path` from that source. */
const SYNC = `Kustomization ${FLUX_SOURCE.namespace}/${FLUX_SOURCE.name}`;

/** `clusters/dev`, `./clusters/dev` and `./clusters/dev/` are one path to Flux; unset is the source's root. */
function fluxPath(path: string | undefined): string {
  const normal = posix.normalize(`/${path?.trim() ?? ''}`).replace(/\/+$/, '');
  return `.${normal || '/'}`;
}

/**
 * After the hand-off, what the cluster's live Flux applies: the flux-system Kustomization's
 * `spec.path` must be `./clusters/<cluster>`. Read through the bot's own kubeconfig for the cluster,
 * so a bootstrap that went to another cluster (the ops host's KUBECONFIG naming it) shows here as
 * a missing Kustomization, or one left applying another cluster's path.
 */
export async function checkFluxBootstrappedPath(ctx: StepContext): Promise<string> {
  const cluster = ctx.cluster.name;
  const wanted = `./clusters/${cluster}`;
  const live = await ctx.kube.readKustomization(FLUX_SOURCE.namespace, FLUX_SOURCE.name);
  if (live && fluxPath(live.path) === wanted) return `Flux applies ${wanted} on ${cluster} (${SYNC})`;
  const observed = live
    ? `${cluster}'s ${SYNC} applies ${live.path ?? 'the repo root (no spec.path)'}, not ${wanted}: ` +
      `${cluster} gets another cluster's manifests and K3S_API_HOST. The bootstrap went to another cluster or with another --path; ` +
      `bootstrap ${cluster} again with --path=clusters/${cluster} from its own KUBECONFIG`
    : `${cluster} has no ${SYNC} after flux-bootstrap.yml (expected one applying ${wanted}): ` +
      `the bootstrap reached another cluster's API (the ops host's KUBECONFIG), not ${cluster}'s`;
  await ctx.gateFailed('Flux path', observed);
  throw new ClusterBotError('GATE_FAILED', observed);
}

/** flux-bootstrap.yml's step, failing when the cluster's live Flux does not apply its own path afterwards. */
export function withFluxPathChecked(step: Step): Step {
  return {
    ...step,
    async run(ctx) {
      const result = await step.run(ctx);
      return { ...result, summary: `${result.summary}; ${await checkFluxBootstrappedPath(ctx)}` };
    },
  };
}
