import type { StepContext } from '../plan/step.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';

/** The GitRepository `flux bootstrap` creates: the source of every Kustomization it applies. */
export const FLUX_SOURCE = { namespace: 'flux-system', name: 'flux-system' } as const;
const SOURCE = `GitRepository ${FLUX_SOURCE.namespace}/${FLUX_SOURCE.name}`;
const SERVED_COMMIT = /(?:^|@sha1:)([0-9a-f]{40})$/;

export interface PreflightFindings {
  readonly problems: string[];
  /** Parts the bot could not find or read: named in the verdict, never passed silently. */
  readonly notChecked: string[];
}

/**
 * Ansible renders from the ops host's checkout, Flux from the commit its GitRepository serves
 * (`status.artifact.revision`, `main@sha1:<sha>`): when they differ, the two layers install Cilium
 * from different commits, and the parity proven here says nothing about what Flux applies.
 */
export async function checkFluxSource(ctx: StepContext): Promise<PreflightFindings> {
  const source = await ctx.kube
    .readGitRepository(FLUX_SOURCE.namespace, FLUX_SOURCE.name)
    .catch(() => undefined);
  if (!source)
    return { problems: [], notChecked: [`the commit Flux serves (no ${SOURCE} on ${ctx.cluster.name})`] };
  if (source.revision === undefined)
    return { problems: [], notChecked: [`the commit Flux serves (${SOURCE} has no artifact yet)`] };
  const served = SERVED_COMMIT.exec(source.revision)?.[1];
  if (!served)
    return {
      problems: [],
      notChecked: [`the commit Flux serves (${SOURCE} revision "${source.revision}" names no sha1)`],
    };
  const head = await readRepoCommit(ctx);
  if (head === served) return { problems: [], notChecked: [] };
  return {
    problems: [
      `the ops host's checkout is at ${head} but Flux's ${SOURCE} serves ${source.revision}: ` +
        'Ansible and Flux would render Cilium from different commits (push the checkout, or check out what Flux serves)',
    ],
    notChecked: [],
  };
}
