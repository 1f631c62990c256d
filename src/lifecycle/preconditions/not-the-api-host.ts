import type { NodeEntry } from '../../config/world-config.js';
import { isClusterBotError } from '../../errors.js';
import { readClusterVar } from '../ansible/read-cluster-var.js';
import type { StepContext } from '../plan/step.js';
import { inventoryHostAddresses } from '../repo/inventory-host-addresses.js';
import { INVENTORY_FILE } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import type { Precondition } from './precondition.js';

/**
 * The node every client reaches the API through is not rebuilt from under itself: once it stops,
 * `delete Node` fails against the API it just stopped and every Cilium agent (k8sServiceHost is
 * k3s_api_host) loses its endpoint. Both ways in count: k3s_api_host, and the server of the
 * kubeconfig the bot itself uses (mounted or adopted). The way out is the VIP, which survives any
 * one server.
 */
export function notTheApiHost(node: NodeEntry): Precondition {
  return {
    label: `${node.name} is not the API host`,
    async check(ctx) {
      const names = await namesOf(ctx, node);
      const [apiHost, kubeconfig] = await Promise.all([
        apiHostReason(ctx, node, names),
        kubeconfigReason(ctx, node, names),
      ]);
      const unknown = [apiHost, kubeconfig].flatMap((found) => ('unknown' in found ? [found.unknown] : []));
      const reasons = [apiHost, kubeconfig].flatMap((found) => ('reason' in found ? [found.reason] : []));
      if (reasons.length === 0) return unknown;
      return [
        ...unknown,
        `${node.name} (${node.address}) is ${reasons.join(' and ')}: the API and every Cilium agent's ` +
          `k8sServiceHost go through it, so rebuilding it cuts them off (delete Node would fail against the API it stopped). ` +
          `Point k3s_api_host (and the bot's kubeconfig server) at the control-plane VIP (kube_vip_address) first, ` +
          `roll Cilium out with it, then reprovision ${node.name}`,
      ];
    },
  };
}

type Finding = { readonly reason: string } | { readonly unknown: string } | { readonly clear: true };

/** What the node answers to: its config address, its name, and its `ansible_host` in hosts.ini. */
async function namesOf(ctx: StepContext, node: NodeEntry): Promise<readonly string[]> {
  const inventory = inventoryHostAddresses((await readRepoText(ctx, INVENTORY_FILE)) ?? '');
  const ansibleHost = inventory.get(node.name);
  return [node.address, node.name, ...(ansibleHost ? [ansibleHost] : [])];
}

async function apiHostReason(ctx: StepContext, node: NodeEntry, names: readonly string[]): Promise<Finding> {
  try {
    const apiHost = await readClusterVar(ctx, 'k3s_api_host');
    if (!apiHost || !names.includes(apiHost.value)) return { clear: true };
    return { reason: `k3s_api_host (${apiHost.file})` };
  } catch (error) {
    if (!isClusterBotError(error, 'PRECONDITION_FAILED')) throw error;
    return { unknown: `cannot tell whether ${node.name} is the API host: ${error.message}` };
  }
}

async function kubeconfigReason(
  ctx: StepContext,
  node: NodeEntry,
  names: readonly string[],
): Promise<Finding> {
  let server: string;
  try {
    server = await ctx.kube.apiServer();
  } catch (error) {
    return {
      unknown: `cannot tell whether ${node.name} is the server of the bot's kubeconfig for ${ctx.cluster.name}: ${(error as Error).message}`,
    };
  }
  // A URL's hostname keeps an IPv6 address's brackets; hosts.ini and the config write it bare.
  const host = URL.canParse(server) ? new URL(server).hostname.replace(/^\[(.*)\]$/, '$1') : server;
  if (!names.includes(host)) return { clear: true };
  return { reason: `the server of the bot's kubeconfig for ${ctx.cluster.name} (${server})` };
}
