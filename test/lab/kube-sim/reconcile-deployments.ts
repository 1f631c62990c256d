import { controllerOf } from './controller-of.js';
import { isPodReady } from './is-pod-ready.js';
import type { Condition, Deployment, Pod, ReplicaSet } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';
import { scaledValue } from './scaled-value.js';
import type { SimContext } from './sim-context.js';

/**
 * The Deployment controller, for scale and status only: its ReplicaSet follows spec.replicas and the
 * status sums the pods. A template change does not start a new ReplicaSet here (not needed by the bot).
 */
export function reconcileDeployments(ctx: SimContext): void {
  const { store } = ctx;
  for (const deployment of store.list<Deployment>('deployments')) {
    const sets = store
      .list<ReplicaSet>('replicasets')
      .filter((rs) => controllerOf(rs)?.uid === deployment.metadata.uid);
    for (const rs of sets) {
      if (rs.spec.replicas !== deployment.spec.replicas)
        store.update('replicasets', { ...rs, spec: { ...rs.spec, replicas: deployment.spec.replicas } });
    }
    const setUids = new Set(sets.map((rs) => rs.metadata.uid));
    const pods = store.list<Pod>('pods').filter((p) => setUids.has(controllerOf(p)?.uid ?? ''));
    writeStatus(ctx, deployment, pods, sets[0]?.metadata.name);
  }
}

function writeStatus(
  ctx: SimContext,
  deployment: Deployment,
  pods: Pod[],
  replicaSetName: string | undefined,
): void {
  const desired = deployment.spec.replicas;
  const available = pods.filter(isPodReady).length;
  const unavailable = Math.max(0, desired - available);
  const strategy = deployment.spec.strategy as
    | { rollingUpdate?: { maxUnavailable?: number | string } }
    | undefined;
  const tolerated = scaledValue(strategy?.rollingUpdate?.maxUnavailable, desired, false, 0);
  const isAvailable = available >= desired - tolerated;
  const previous = (deployment.status.conditions as Condition[] | undefined) ?? [];
  const conditions = [
    condition(
      ctx,
      previous,
      'Available',
      isAvailable,
      isAvailable ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
      isAvailable ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
    ),
    condition(
      ctx,
      previous,
      'Progressing',
      true,
      'NewReplicaSetAvailable',
      `ReplicaSet "${replicaSetName ?? deployment.metadata.name}" has successfully progressed.`,
    ),
  ];
  const status = {
    ...(available > 0 ? { availableReplicas: available } : {}),
    conditions,
    observedGeneration: deployment.metadata.generation,
    ...(available > 0 ? { readyReplicas: available } : {}),
    ...(pods.length > 0 ? { replicas: pods.length, updatedReplicas: pods.length } : {}),
    ...(unavailable > 0 ? { unavailableReplicas: unavailable } : {}),
  };
  ctx.store.update('deployments', { ...deployment, status });
}

function condition(
  ctx: SimContext,
  previous: Condition[],
  type: string,
  ok: boolean,
  reason: string,
  message: string,
): Condition {
  const status = ok ? 'True' : 'False';
  const before = previous.find((c) => c.type === type);
  const at = rfc3339(ctx.seeding ? ctx.bornAt : ctx.now());
  const same = before?.status === status && before.reason === reason;
  return {
    type,
    status,
    lastUpdateTime: same ? before.lastUpdateTime! : at,
    lastTransitionTime: before?.status === status ? before.lastTransitionTime! : at,
    reason,
    message,
  };
}
