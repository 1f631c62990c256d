import { clusterIdentityProblems } from '../ansible/cluster-identity-problems.js';
import type { Precondition } from './precondition.js';

/** No other configured cluster resolves this cluster's kubeconfig name, VIP or API host (clusterIdentityProblems). */
export const clustersDistinct: Precondition = {
  label: 'its kubeconfig, VIP and API host are its own',
  check: (ctx) => clusterIdentityProblems(ctx),
};
