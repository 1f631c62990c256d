import type { Node } from './kube-types.js';
import type { ObjectStore } from './object-store.js';

const ETCD_ROLE = 'node-role.kubernetes.io/etcd';

/** What `systemctl start k3s` on a server comes to: started, or why k3s does not come up. */
export type K3sStart = { readonly started: true } | { readonly started: false; readonly reason: string };

/**
 * The k3s processes behind the API, as the lab's `systemctl` and `k3s` stand-ins on the nodes report
 * them: which servers stopped k3s, and etcd's membership once `--cluster-reset` reset it. With every
 * server stopped the API does not answer; after a reset only the restored server is a member (the
 * others lose the etcd role), and another server becomes one again only when it starts without its
 * old data (k3s documents moving `server/db` aside first): started with it, it does not come up.
 */
export class K3sServers {
  readonly #stopped = new Set<string>();
  #members: Set<string> | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly setKubeletUp: (name: string, up: boolean) => void,
  ) {}

  /** False once k3s is stopped on every server: nothing serves the API. */
  apiAnswers(): boolean {
    const servers = this.store.list<Node>('nodes').map((node) => node.metadata.name);
    return servers.length === 0 || servers.some((name) => !this.#stopped.has(name));
  }

  stop(name: string): void {
    this.#stopped.add(name);
    this.setKubeletUp(name, false);
  }

  /** `k3s server --cluster-reset`: etcd's members are this server alone. */
  resetMembership(name: string): void {
    this.#members = new Set([name]);
    for (const node of this.store.list<Node>('nodes')) {
      if (node.metadata.name === name || node.metadata.labels?.[ETCD_ROLE] === undefined) continue;
      const labels = { ...node.metadata.labels };
      delete labels[ETCD_ROLE];
      this.store.update('nodes', { ...node, metadata: { ...node.metadata, labels } });
    }
  }

  start(name: string, dataKept: boolean): K3sStart {
    if (this.#members && !this.#members.has(name)) {
      if (dataKept) {
        return {
          started: false,
          reason: `${name}'s etcd data belongs to a cluster that was reset: it waits for peers that are gone`,
        };
      }
      this.#members.add(name);
      const node = this.store.get<Node>('nodes', undefined, name);
      if (node) {
        const labels = { ...node.metadata.labels, [ETCD_ROLE]: 'true' };
        this.store.update('nodes', { ...node, metadata: { ...node.metadata, labels } });
      }
    }
    this.#stopped.delete(name);
    this.setKubeletUp(name, true);
    return { started: true };
  }

  /** A removed Node's server is no longer one of the cluster's. */
  forget(name: string): void {
    this.#stopped.delete(name);
    this.#members?.delete(name);
  }
}
