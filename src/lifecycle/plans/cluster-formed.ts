import type { StepContext } from '../plan/step.js';
import { readClusterFormation } from '../preconditions/cluster-formation.js';
import { readRepoFacts } from '../repo/read-repo-facts.js';

/**
 * k3s.yml's first run founds the cluster (on prod: the prod init): no node registered, or no API and no
 * server in hosts.ini with k3s. Anything else is a formed cluster, whose preview says whether to ask;
 * the k3s step's founder check refuses one whose API is down before it gets that far.
 */
export async function isFirstRun(ctx: StepContext): Promise<boolean> {
  return (await readClusterFormation(ctx, () => readRepoFacts(ctx))).kind === 'first-run';
}
