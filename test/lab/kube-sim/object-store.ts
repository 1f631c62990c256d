import type { KubeObject } from './kube-types.js';
import type { ResourceName } from './resources.js';
import { stableStringify } from './stable-stringify.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  readonly type: WatchEventType;
  readonly resource: ResourceName;
  /** The new state; for DELETED the last state, stamped with the deletion's resourceVersion. */
  readonly object: KubeObject;
  /** The state before a MODIFIED, so a selector-filtered watch can tell "left the selection". */
  readonly previous?: KubeObject;
  readonly resourceVersion: number;
}

/** How many events a watch may replay from; older resourceVersions get 410 Gone, as etcd compaction does. */
const HISTORY_LIMIT = 10_000;

/**
 * The etcd of the simulator: every object of every resource, one monotonic resourceVersion across
 * all of them, and an event history so a watch can resume from a resourceVersion.
 * Objects go in and come out as clones, so nobody mutates stored state by accident.
 */
export class ObjectStore {
  readonly #objects = new Map<ResourceName, Map<string, KubeObject>>();
  readonly #history: StoreEvent[] = [];
  readonly #listeners = new Set<(event: StoreEvent) => void>();
  #version: number;

  constructor(firstResourceVersion = 1000) {
    this.#version = firstResourceVersion;
  }

  get resourceVersion(): number {
    return this.#version;
  }

  get<T extends KubeObject>(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
  ): T | undefined {
    const found = this.#bucket(resource).get(keyOf(namespace, name));
    return found === undefined ? undefined : (structuredClone(found) as T);
  }

  /** Every object of a resource, in etcd key order (namespace, then name). */
  list<T extends KubeObject>(resource: ResourceName): T[] {
    return [...this.#bucket(resource).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => structuredClone(object) as T);
  }

  create<T extends KubeObject>(resource: ResourceName, object: T): T {
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    if (this.#bucket(resource).has(key)) throw new Error(`kube-sim: ${resource} ${key} already exists`);
    return this.#write(resource, 'ADDED', object) as T;
  }

  /** Writes a new state; an update that changes nothing is not a write (no new resourceVersion, no event). */
  update<T extends KubeObject>(resource: ResourceName, object: T): T {
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    const current = this.#bucket(resource).get(key);
    if (current === undefined) throw new Error(`kube-sim: ${resource} ${key} does not exist`);
    const candidate = {
      ...object,
      metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion },
    };
    if (stableStringify(candidate) === stableStringify(current)) return structuredClone(current) as T;
    return this.#write(resource, 'MODIFIED', object, current) as T;
  }

  delete<T extends KubeObject>(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
  ): T | undefined {
    const bucket = this.#bucket(resource);
    const key = keyOf(namespace, name);
    const current = bucket.get(key);
    if (current === undefined) return undefined;
    bucket.delete(key);
    const resourceVersion = ++this.#version;
    const last = { ...current, metadata: { ...current.metadata, resourceVersion: String(resourceVersion) } };
    this.#emit({ type: 'DELETED', resource, object: last, resourceVersion });
    return structuredClone(last) as T;
  }

  /** Events after a resourceVersion, or 'expired' when history no longer reaches back that far. */
  eventsAfter(resourceVersion: number): StoreEvent[] | 'expired' {
    const oldest = this.#history[0];
    if (oldest !== undefined && resourceVersion < oldest.resourceVersion - 1) return 'expired';
    return this.#history.filter((event) => event.resourceVersion > resourceVersion);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #write(
    resource: ResourceName,
    type: WatchEventType,
    object: KubeObject,
    previous?: KubeObject,
  ): KubeObject {
    const resourceVersion = ++this.#version;
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(resourceVersion);
    this.#bucket(resource).set(keyOf(stored.metadata.namespace, stored.metadata.name), stored);
    this.#emit({ type, resource, object: stored, resourceVersion, ...(previous ? { previous } : {}) });
    return structuredClone(stored);
  }

  #emit(event: StoreEvent): void {
    this.#history.push(event);
    if (this.#history.length > HISTORY_LIMIT) this.#history.shift();
    for (const listener of this.#listeners) listener(event);
  }

  #bucket(resource: ResourceName): Map<string, KubeObject> {
    let bucket = this.#objects.get(resource);
    if (bucket === undefined) {
      bucket = new Map();
      this.#objects.set(resource, bucket);
    }
    return bucket;
  }
}

function keyOf(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}
