import type { StepContext } from '../plan/step.js';
import { clusterHostGroup } from './cluster-host-group.js';
import { groupMembers, type Inventory, parseInventory } from './parse-inventory.js';
import { readRepoText } from './read-repo-text.js';
import { layerVars, type RepoVar, type RepoVars } from './repo-vars.js';

/** The inventory as every ansible and ansible-playbook run is given it, from infra/ansible (their cwd). */
export const ANSIBLE_INVENTORY = 'inventory/hosts.ini';
export const INVENTORY_FILE = `infra/ansible/${ANSIBLE_INVENTORY}`;
/** The repo's own Ansible settings; without it Ansible falls back to the ops user's or the machine's. */
export const ANSIBLE_CONFIG_FILE = 'infra/ansible/ansible.cfg';
export const ALL_VARS_FILE = 'infra/ansible/group_vars/all.yml';
export const groupVarsFile = (group: string) => `infra/ansible/group_vars/${group}/vars.yml`;
export const groupVaultFile = (group: string) => `infra/ansible/group_vars/${group}/vault.yml`;
export const roleDefaultsFile = (role: string) => `infra/ansible/roles/${role}/defaults/main.yml`;

/** A group the roles resolve by a var (`k3s_primary_group`), and its live members in hosts.ini. */
export interface ResolvedGroup {
  readonly variable: string;
  readonly group: string;
  readonly file: string;
  readonly members: readonly string[];
}

/** What the infra repo says about one cluster: the truth the config is checked against. */
export interface RepoFacts {
  readonly inventory: Inventory;
  /** The group the cluster's whole-cluster plays target (`k3s_hosts`). */
  readonly hostGroup: string;
  /** group_vars/all.yml overlaid with the cluster group's vars.yml. */
  readonly vars: RepoVars;
  /** The --cluster-init founder group; undefined when k3s_primary_group is not set. */
  readonly primary: ResolvedGroup | undefined;
  /** The servers group (`k3s_servers_group`); undefined when not set. */
  readonly servers: ResolvedGroup | undefined;
}

/**
 * Reads the inventory and the group_vars the roles read for this cluster. Role defaults are left
 * to the checks that need them. Throws, naming the file, when the inventory cannot be read.
 */
export async function readRepoFacts(ctx: StepContext): Promise<RepoFacts> {
  const hostGroup = clusterHostGroup(ctx.cluster);
  const [inventoryText, vars] = await Promise.all([readRepoText(ctx, INVENTORY_FILE), readGroupVars(ctx)]);
  if (inventoryText === undefined) throw new Error(`${INVENTORY_FILE} cannot be read on the ops host`);
  const inventory = parseInventory(inventoryText);
  const resolve = (variable: string): ResolvedGroup | undefined => {
    const entry: RepoVar | undefined = vars.get(variable);
    if (typeof entry?.value !== 'string') return undefined;
    return {
      variable,
      group: entry.value,
      file: entry.file,
      members: groupMembers(inventory, entry.value),
    };
  };
  return {
    inventory,
    hostGroup,
    vars,
    primary: resolve('k3s_primary_group'),
    servers: resolve('k3s_servers_group'),
  };
}

/** Where a group var was looked for, for the refusal that says it is set nowhere. */
export function notSetIn(repo: RepoFacts, variable: string): string {
  return `${variable} is set neither in ${ALL_VARS_FILE} nor in ${groupVarsFile(repo.hostGroup)}`;
}

/** The group_vars the roles read for this cluster: `all.yml`, overlaid by its group's `vars.yml`. */
export async function readGroupVars(ctx: StepContext): Promise<RepoVars> {
  const group = clusterHostGroup(ctx.cluster);
  const [all, own] = await Promise.all([
    readRepoText(ctx, ALL_VARS_FILE),
    readRepoText(ctx, groupVarsFile(group)),
  ]);
  return layerVars([
    { file: ALL_VARS_FILE, text: all },
    { file: groupVarsFile(group), text: own },
  ]);
}
