import { CILIUM } from '../gates/gate.js';
import type { StepContext } from '../plan/step.js';

/** The Cilium DaemonSet as it was before the playbook: what "nothing rolled" is measured against. */
export interface CiliumBaseline {
  readonly generation: number | undefined;
  readonly revisions: readonly string[];
  readonly podsCreatedAt: Readonly<Record<string, string | undefined>>;
  /** Each node's agent revision (absent in a baseline a job saved before this was recorded). */
  readonly revisionOnNode?: Readonly<Record<string, string | undefined>> | undefined;
}

export const CILIUM_BASELINE_FACT = 'ciliumBaseline';

export async function readCiliumBaseline(ctx: StepContext): Promise<CiliumBaseline> {
  const ds = await ctx.kube.readDaemonSet(CILIUM.namespace, CILIUM.name);
  const revisions = ds ? await ctx.kube.listRevisionHashes(CILIUM.namespace, CILIUM.selector) : [];
  const pods = ds
    ? await ctx.kube.listPods({ namespace: CILIUM.namespace, labelSelector: CILIUM.selector })
    : [];
  return {
    generation: ds?.generation,
    revisions,
    podsCreatedAt: Object.fromEntries(pods.map((pod) => [pod.name, pod.createdAt])),
    revisionOnNode: Object.fromEntries(
      pods.flatMap((pod) => (pod.node ? [[pod.node, pod.revisionHash]] : [])),
    ),
  };
}
