import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { KubeGateway, NodeState } from '../ports/kube-gateway.js';
import type { Gate } from './gate.js';

export interface GateOutcome {
  readonly gate: string;
  readonly passed: boolean;
  readonly observed: string;
}

/**
 * One read of every gate, as things are now: what a standalone verify reports. The gates share one
 * list of the Nodes, so they judge the same moment and the API is asked once.
 */
export async function readGates(ctx: StepContext, gates: readonly Gate[]): Promise<GateOutcome[]> {
  const once = { ...ctx, kube: listingNodesOnce(ctx.kube) };
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) outcomes.push(await readGate(once, gate));
  return outcomes;
}

function listingNodesOnce(kube: KubeGateway): KubeGateway {
  let nodes: Promise<NodeState[]> | undefined;
  return { ...kube, listNodes: () => (nodes ??= kube.listNodes()) };
}

/** A gate that cannot read what it checks has not passed: it says why instead of crashing the step. */
export async function readGate(ctx: StepContext, gate: Gate): Promise<GateOutcome> {
  try {
    return { gate: gate.name, ...(await gate.evaluate(ctx)) };
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return {
      gate: gate.name,
      passed: false,
      observed: `could not read the Kubernetes API: ${(error as Error).message}`,
    };
  }
}
