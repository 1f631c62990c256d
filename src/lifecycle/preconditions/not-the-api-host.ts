import type { NodeEntry } from '../../config/world-config.js';
import { isClusterBotError } from '../../errors.js';
import { readClusterVar } from '../steps/read-cluster-var.js';
import type { Precondition } from './precondition.js';

/**
 * The node every client reaches the API through is not rebuilt from under itself: once it stops,
 * `delete Node` fails against the API it just stopped and every Cilium agent (k8sServiceHost is
 * k3s_api_host) loses its endpoint. The way out is the VIP, which survives any one server.
 */
export function notTheApiHost(node: NodeEntry): Precondition {
  return {
    label: `${node.name} is not the API host`,
    async check(ctx) {
      let apiHost: Awaited<ReturnType<typeof readClusterVar>>;
      try {
        apiHost = await readClusterVar(ctx, 'k3s_api_host');
      } catch (error) {
        if (!isClusterBotError(error, 'PRECONDITION_FAILED')) throw error;
        return [`cannot tell whether ${node.name} is the API host: ${error.message}`];
      }
      if (!apiHost || ![node.address, node.name].includes(apiHost.value)) return [];
      return [
        `${node.name} (${node.address}) is k3s_api_host (${apiHost.file}): the API and every Cilium agent's ` +
          `k8sServiceHost go through it, so rebuilding it cuts them off (delete Node would fail against the API it stopped). ` +
          `Point k3s_api_host (and the bot's kubeconfig server) at the control-plane VIP (kube_vip_address) first, ` +
          `roll Cilium out with it, then reprovision ${node.name}`,
      ];
    },
  };
}
