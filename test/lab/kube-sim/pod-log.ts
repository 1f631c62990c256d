import { badRequest } from './api-status.js';
import { CONFIG_INIT_FAILURE } from './cilium-daemon-set.js';
import type { ContainerStatus, Pod } from './kube-types.js';

/** GET .../pods/{name}/log: what the container printed, or the real server's 400s for the usual mistakes. */
export function podLog(pod: Pod, container: string | null): string {
  const mains = pod.spec.containers.map((c) => c.name);
  const inits = (pod.spec.initContainers ?? []).map((c) => c.name);
  const name = container ?? (mains.length === 1 ? mains[0] : undefined);
  if (name === undefined) {
    throw badRequest(
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${mains.join(' ')}]` +
        (inits.length > 0 ? ` or one of the init containers: [${inits.join(' ')}]` : ''),
    );
  }
  const statuses: ContainerStatus[] = [
    ...(pod.status.initContainerStatuses ?? []),
    ...(pod.status.containerStatuses ?? []),
  ];
  const status = statuses.find((s) => s.name === name);
  if (!mains.includes(name) && !inits.includes(name))
    throw badRequest(`container ${name} is not valid for pod ${pod.metadata.name}`);
  const waiting = status?.state.waiting as { reason?: string } | undefined;
  if (waiting?.reason === 'CrashLoopBackOff') return `${CONFIG_INIT_FAILURE}\n`;
  if (status === undefined || waiting !== undefined) {
    throw badRequest(
      `container "${name}" in pod "${pod.metadata.name}" is waiting to start: ${waiting?.reason ?? 'ContainerCreating'}`,
    );
  }
  return `time="${pod.metadata.creationTimestamp}" level=info msg="${name} started" subsys=daemon\n`;
}
