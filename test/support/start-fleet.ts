import { type FleetCluster, fleetClusters } from '../lab/fleet-inventory.js';
import { type KubeSimHandle, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';

export interface LabFleet {
  readonly clusters: readonly { readonly cluster: FleetCluster; readonly sim: KubeSimHandle }[];
  /** The fleet's nodes, each answering on its own loopback address to its own name, as the lab's other nodes. */
  readonly nodes: SshdLab;
  /** Node name → address, for every node of the fleet. */
  readonly addresses: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/** A formed, healthy cluster's API for each fleet cluster, and an sshd for its nodes. */
export async function startFleet(count: number): Promise<LabFleet> {
  const list = fleetClusters(count);
  const addresses = Object.fromEntries(
    list.flatMap((cluster) => cluster.nodes.map((node) => [node.name, node.address])),
  );
  const [nodes, ...sims] = await Promise.allSettled([
    startSshd({ addresses: Object.values(addresses) }),
    ...list.map((cluster) =>
      startKubeSim({
        nodes: cluster.nodes.map((node) => node.name),
        nodeAddresses: Object.fromEntries(cluster.nodes.map((node) => [node.name, node.address])),
        agentReadyDelayMs: 150,
      }),
    ),
  ]);
  const stop = async () => {
    if (nodes.status === 'fulfilled') await nodes.value.stop();
    for (const sim of sims) if (sim.status === 'fulfilled') await sim.value.close();
  };
  const failed = [nodes, ...sims].find((started) => started.status === 'rejected');
  if (failed || nodes.status !== 'fulfilled') {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  for (const [name, address] of Object.entries(addresses))
    await nodes.value.setNodeState('node-name', name, address);
  return {
    clusters: list.map((cluster, index) => ({
      cluster,
      sim: (sims[index] as PromiseFulfilledResult<KubeSimHandle>).value,
    })),
    nodes: nodes.value,
    addresses,
    stop,
  };
}
