import type { WorldConfig } from '../config/world-config.js';

/** Where things live in the infra repo on the ops host. */
export function repoPaths(world: WorldConfig) {
  const root = world.ops.repoPath.replace(/\/+$/, '');
  const ansible = `${root}/infra/ansible`;
  return {
    root,
    ansible,
    tofu: `${root}/infra/tofu`,
    inventory: `${ansible}/inventory/hosts.ini`,
    prodVault: `${ansible}/group_vars/k3s_prod/vault.yml`,
    prodVars: `${ansible}/group_vars/k3s_prod/vars.yml`,
    ciliumHelmRelease: `${root}/platform/cilium/helmrelease.yaml`,
    ciliumTemplate: `${ansible}/roles/cilium/templates/cilium-values.yaml.j2`,
    ciliumReferenceValues: `${root}/platform/cilium/values.yaml`,
  };
}
