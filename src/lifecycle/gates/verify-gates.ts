import { ciliumRolledOutGate } from './cilium-rolled-out-gate.js';
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
