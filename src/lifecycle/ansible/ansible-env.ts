import type { StepContext } from '../plan/step.js';
import { clusterKubeconfigEnv } from './cluster-kubeconfig-env.js';
import { repoAnsibleEnv } from './repo-ansible-env.js';

/**
 * The environment of every ansible and ansible-playbook run for the cluster on the ops host: plain
 * output, the repo's own ansible.cfg (never the ops user's ~/.ansible.cfg, which no approval covers),
 * the cluster's kubeconfig for what the plays run with kubectl, helm or flux, and the cluster's vault
 * password file when it has one.
 */
export async function ansibleEnv(ctx: StepContext): Promise<Record<string, string>> {
  return { ...ansibleSettingsEnv(ctx), ...(await clusterKubeconfigEnv(ctx)) };
}

/** The ANSIBLE_* part of it, known without reading the repo: everything but the cluster's kubeconfig. */
export function ansibleSettingsEnv(ctx: StepContext): Record<string, string> {
  const vault = ctx.cluster.vaultPasswordFile;
  return {
    ...repoAnsibleEnv(ctx.world),
    ...(vault !== undefined && { ANSIBLE_VAULT_PASSWORD_FILE: vault }),
  };
}
