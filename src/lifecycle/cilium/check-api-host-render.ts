import type { StepContext } from '../plan/step.js';
import { inventoryHostAddresses } from '../repo/inventory-host-addresses.js';
import {
  ALL_VARS_FILE,
  groupVarsFile,
  INVENTORY_FILE,
  readGroupVars,
  readRepoFacts,
  roleDefaultsFile,
} from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { layerVars, renderVar } from '../repo/repo-vars.js';
import type { PreflightFindings } from './check-flux-source.js';

const CILIUM_DEFAULTS = roleDefaultsFile('cilium');

/** What `{{ k3s_api_host }}` renders to for this cluster, and the file that set it. */
export interface RenderedApiHost {
  readonly value: string;
  readonly file: string;
}

/**
 * The template's spelling proves nothing: `k3s_api_host: ""`, or prod falling back to dev's value in
 * all.yml, renders the incident. So the var is resolved as the cilium role sees it (its defaults,
 * then group_vars/all.yml, then the cluster's group) and must be one of the cluster's servers in
 * hosts.ini or its kube_vip_address.
 */
export async function checkApiHostRender(
  ctx: StepContext,
): Promise<PreflightFindings & { readonly rendered: RenderedApiHost | undefined }> {
  const [defaults, groupVars, facts, inventory] = await Promise.all([
    readRepoText(ctx, CILIUM_DEFAULTS),
    readGroupVars(ctx),
    readRepoFacts(ctx),
    readRepoText(ctx, INVENTORY_FILE),
  ]);
  const vars = new Map([...layerVars([{ file: CILIUM_DEFAULTS, text: defaults }]), ...groupVars]);
  const entry = vars.get('k3s_api_host');
  const where = `${CILIUM_DEFAULTS}, ${ALL_VARS_FILE} or ${groupVarsFile(facts.hostGroup)}`;
  if (!entry)
    return {
      problems: [`k3s_api_host is set in none of ${where}: k8sServiceHost would render empty`],
      notChecked: [],
      rendered: undefined,
    };
  const value = renderVar(vars, 'k3s_api_host');
  if (value === undefined)
    return {
      problems: [
        `k3s_api_host in ${entry.file} is a template the bot cannot resolve (${JSON.stringify(entry.value)}): what k8sServiceHost renders is unknown`,
      ],
      notChecked: [],
      rendered: undefined,
    };
  const rendered = { value, file: entry.file };
  if (value.trim() === '')
    return {
      problems: [`k3s_api_host renders empty (${entry.file}): k8sServiceHost: "" is the incident`],
      notChecked: [],
      rendered,
    };
  const addresses = inventoryHostAddresses(inventory ?? '');
  const servers = (facts.servers?.members ?? []).map((host) => `${host}=${addresses.get(host) ?? host}`);
  const serverAddresses = (facts.servers?.members ?? []).map((host) => addresses.get(host) ?? host);
  const vip = renderVar(vars, 'kube_vip_address');
  if (serverAddresses.includes(value) || value === vip) return { problems: [], notChecked: [], rendered };
  return {
    problems: [
      `k3s_api_host renders ${value} (${entry.file}), which is neither a server of ${ctx.cluster.name} in ${INVENTORY_FILE} ` +
        `(${servers.join(', ') || 'none found'}) nor its kube_vip_address (${vip ?? 'unset'})`,
    ],
    notChecked: [],
    rendered,
  };
}
