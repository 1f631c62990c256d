/**
 * Switching a cluster to another kubeconfig, as the lifecycle sees it: after k3s.yml (re)founds a
 * cluster, the kubeconfig the bot was given may be missing or no longer accepted, and the one the k3s
 * role just wrote on the ops host is the fresh one. Implemented by src/kube; faked in unit tests.
 */
export interface AdoptedKubeconfig {
  /** Where the bot keeps it from now on (the cluster's gateway prefers it to the configured path). */
  readonly keptAt: string;
  /** Nodes the cluster's API listed with it: the proof that it reaches the cluster. */
  readonly nodes: number;
}

export interface KubeconfigKeeper {
  /**
   * Checks this kubeconfig (YAML text) against the allowlist before anything loads it, that its
   * server is one the operators named for the cluster (the configured kubeconfig's, or one of
   * `namedHosts` on 6443: k3s_api_host, kube_vip_address as the repo resolves them), that it reaches
   * the cluster and that every node it lists is one of the cluster's; only then keeps it and makes
   * the cluster's gateway use it. Rejects with KUBE_UNREACHABLE or PRECONDITION_FAILED, saying why,
   * and keeps nothing otherwise.
   */
  adopt(cluster: string, kubeconfig: string, namedHosts: readonly string[]): Promise<AdoptedKubeconfig>;
}
