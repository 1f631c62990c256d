import { type FleetCluster, fleetExtraVars } from '../lab/fleet-inventory.js';
import type { SshdLab } from '../lab/sshd.js';

export interface FleetConfigParts {
  readonly clusters: readonly { readonly cluster: FleetCluster; readonly kubeconfigPath: string }[];
  /** The sshd the fleet's nodes answer on. */
  readonly nodes: SshdLab;
  /** The scheduled verify of every fleet cluster (e.g. "1m"); none when absent. */
  readonly verifyEvery?: string;
}

/**
 * The world config's entries for a lab fleet: each cluster run as dev is (one approval, the
 * requester may give it), targeted through its own inventory groups as prod is.
 */
export function fleetClustersConfig(
  fleet: FleetConfigParts,
  shared: {
    readonly nodeSsh: (nodes: SshdLab) => object;
    readonly timeouts: Readonly<Record<string, string>>;
  },
): Record<string, unknown> {
  return Object.fromEntries(
    fleet.clusters.map(({ cluster, kubeconfigPath }) => [
      cluster.name,
      {
        kubeconfigPath,
        approvers: ['U0ALICE', 'U0BOB'],
        requiredApprovals: 1,
        allowSelfApproval: true,
        driftEvery: 'off',
        ...(fleet.verifyEvery && { verifyEvery: fleet.verifyEvery }),
        extraVars: fleetExtraVars(cluster),
        nodeSsh: shared.nodeSsh(fleet.nodes),
        timeouts: shared.timeouts,
        nodes: Object.fromEntries(
          cluster.nodes.map((node, index) => [
            node.name,
            { address: node.address, roles: index === 0 ? ['server', 'primary'] : ['server'] },
          ]),
        ),
      },
    ]),
  );
}
