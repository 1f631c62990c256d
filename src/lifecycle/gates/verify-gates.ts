import { ciliumRolledOutGate } from './cilium-rolled-out-gate.js';
import { etcdSnapshotFreshGate } from './etcd-snapshot-fresh-gate.js';
import type { Gate } from './gate.js';
import { hubbleRelayGate } from './hubble-relay-gate.js';
import { kubeProxyAbsentGate } from './kube-proxy-absent-gate.js';
import { maxUnavailableGate } from './max-unavailable-gate.js';
import { nodesReadyGate } from './nodes-ready-gate.js';

/** The verify gates, in the order an operator reads them. */
export const VERIFY_GATES: readonly Gate[] = [
  nodesReadyGate,
  ciliumRolledOutGate,
  hubbleRelayGate,
  kubeProxyAbsentGate,
  maxUnavailableGate,
];

/**
 * What a read of the cluster as it stands (the verify command, the schedule) checks: the verify
 * gates and its backups. A change's own verify leaves the backup out: a cluster brought up from
 * nothing has no snapshot until k3s's next 12-hourly one, and no change makes one come sooner.
 */
export const STANDING_GATES: readonly Gate[] = [...VERIFY_GATES, etcdSnapshotFreshGate];
