import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { ContainerProblem, PodState } from '../lifecycle/ports/kube-gateway.js';

export function toPodState(pod: V1Pod): PodState {
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '?',
    node: pod.spec?.nodeName,
    ready,
    ownerKind: pod.metadata?.ownerReferences?.[0]?.kind,
    mirror: pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined,
    revisionHash: pod.metadata?.labels?.['controller-revision-hash'],
    createdAt: pod.metadata?.creationTimestamp
      ? new Date(pod.metadata.creationTimestamp).toISOString()
      : undefined,
    deleting: pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null,
    problems: [
      ...(pod.status?.initContainerStatuses ?? []).map((s) => problemOf(s, true)),
      ...(pod.status?.containerStatuses ?? []).map((s) => problemOf(s, false)),
    ].filter((problem): problem is ContainerProblem => problem !== undefined),
  };
}

function problemOf(status: V1ContainerStatus, init: boolean): ContainerProblem | undefined {
  const terminated = status.state?.terminated;
  if (status.ready || (init && terminated?.exitCode === 0)) return undefined;
  const waiting = status.state?.waiting;
  const last = status.lastState?.terminated;
  const reason =
    waiting?.reason ?? terminated?.reason ?? (status.state?.running ? 'Running, not Ready' : 'Unknown');
  return {
    container: status.name,
    init,
    reason,
    // A crash-looping container's waiting message is only the back-off; why it crashed is in its last exit.
    message: waiting ? (last?.message ?? waiting.message) : (terminated?.message ?? last?.message),
    restarts: status.restartCount ?? 0,
  };
}
