import type { ResolvedKubeSimOptions } from './kube-sim-options.js';
import type { ObjectStore } from './object-store.js';
import type { PodRuntime } from './pod-status.js';
import type { TimerSet } from './timer-set.js';

/** What the simulated kubelet of one node is doing. */
export interface NodeRuntime {
  /** False: the kubelet stopped posting Ready (setNodeReady(name, false) or scenario nodeNotReady). */
  kubeletUp: boolean;
  /** False on a freshly joined node until its Cilium agent runs (CNI not initialised). */
  networkReady: boolean;
  /** Epoch ms before which a joined node does not report Ready. */
  readyNotBefore: number;
}

/** Everything the controllers share: the store and the facts the store cannot hold. */
export interface SimContext {
  readonly store: ObjectStore;
  readonly options: ResolvedKubeSimOptions;
  readonly nodeRuntime: Map<string, NodeRuntime>;
  /** By pod uid. */
  readonly podRuntime: Map<string, PodRuntime>;
  readonly timers: TimerSet;
  /** The template hash of the cilium DaemonSet at start: broken agents are the ones of any other template. */
  readonly initialCiliumHash: string;
  /** When the cluster was built; seeded objects carry it as creationTimestamp. */
  readonly bornAt: Date;
  /** True during the first reconcile: pods come into being already running (a settled cluster). */
  seeding: boolean;
  now(): Date;
  reconcileSoon(): void;
}
