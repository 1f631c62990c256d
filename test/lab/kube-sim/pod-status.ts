import { createHash } from 'node:crypto';
import { CONFIG_INIT_FAILURE } from './cilium-daemon-set.js';
import type { AgentFailure } from './kube-sim-options.js';
import type { Condition, Container, ContainerStatus, Pod } from './kube-types.js';

/** What the simulated kubelet knows about one pod; the status is derived from it, never stored apart. */
export interface PodRuntime {
  readonly createdAt: string;
  /** When the containers started and became Ready (absent: still initialising, or crash-looping). */
  startedAt?: string;
  /** A broken agent: how its first init container fails on every attempt; undefined for a sound pod. */
  readonly failure: AgentFailure | undefined;
  restarts: number;
  /** When the failing init container last exited. */
  lastCrashAt?: string;
  /** Failed pulls of the image so far (image-pull failure). */
  pullAttempts: number;
}

export interface NodeView {
  readonly address: string;
  /** False while the node is not Ready: the node controller marks its pods not Ready. */
  readonly ready: boolean;
  readonly readySince: string;
}

/** The status a kubelet (and the node lifecycle controller) would report for this pod right now. */
export function buildPodStatus(
  pod: Pod,
  runtime: PodRuntime,
  node: NodeView | undefined,
  unschedulableMessage: string,
): Pod['status'] {
  const scheduled = cond('PodScheduled', 'True', runtime.createdAt);
  if (node === undefined) {
    return {
      phase: 'Pending',
      conditions: [
        {
          ...cond('PodScheduled', 'False', runtime.createdAt),
          reason: 'Unschedulable',
          message: unschedulableMessage,
        },
      ],
      qosClass: 'BestEffort',
    };
  }
  const inits = pod.spec.initContainers ?? [];
  const mains = pod.spec.containers;
  const network = pod.spec.hostNetwork === true ? node.address : podAddress(pod.metadata.uid);
  const placement = {
    hostIP: node.address,
    hostIPs: [{ ip: node.address }],
    podIP: network,
    podIPs: [{ ip: network }],
    qosClass: 'BestEffort',
    startTime: runtime.createdAt,
  };
  if (runtime.startedAt !== undefined) {
    // never-ready: running, but the readiness probe of its first container keeps failing.
    const probeFails = runtime.failure === 'never-ready';
    const probeFailure = {
      reason: 'ContainersNotReady',
      message: `containers with unready status: [${mains[0]?.name ?? ''}]`,
    };
    const readyCondition = probeFails
      ? { ...cond('Ready', 'False', runtime.startedAt), ...probeFailure }
      : node.ready
        ? cond('Ready', 'True', runtime.startedAt)
        : cond('Ready', 'False', later(runtime.startedAt, node.readySince));
    return {
      phase: 'Running',
      conditions: [
        cond('PodReadyToStartContainers', 'True', runtime.createdAt),
        cond('Initialized', 'True', runtime.startedAt),
        readyCondition,
        probeFails
          ? { ...cond('ContainersReady', 'False', runtime.startedAt), ...probeFailure }
          : cond('ContainersReady', 'True', runtime.startedAt),
        scheduled,
      ],
      ...placement,
      ...(inits.length > 0
        ? { initContainerStatuses: inits.map((c) => completedInit(pod, c, runtime.createdAt)) }
        : {}),
      containerStatuses: mains.map((c, i) => ({
        ...running(pod, c, runtime.startedAt!),
        ...(probeFails && i === 0 ? { ready: false } : {}),
      })),
    };
  }
  const waitingMains = mains.map((c) =>
    waiting(c, inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'),
  );
  const notReady = (type: string) => ({
    ...cond(type, 'False', runtime.createdAt),
    reason: 'ContainersNotReady',
    message: `containers with unready status: [${mains.map((c) => c.name).join(' ')}]`,
  });
  const crashed = runtime.lastCrashAt !== undefined;
  const pulling = runtime.pullAttempts > 0;
  const initStatuses = inits.map((c, i) => {
    if (i === 0 && crashed) return crashLooping(pod, c, runtime);
    if (i === 0 && pulling) return imagePullFailing(c, runtime.pullAttempts);
    return waiting(c, 'PodInitializing');
  });
  return {
    phase: 'Pending',
    conditions: [
      cond('PodReadyToStartContainers', crashed ? 'True' : 'False', runtime.createdAt),
      inits.length > 0
        ? {
            ...cond('Initialized', 'False', runtime.createdAt),
            reason: 'ContainersNotInitialized',
            message: `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
          }
        : cond('Initialized', 'True', runtime.createdAt),
      notReady('Ready'),
      notReady('ContainersReady'),
      scheduled,
    ],
    ...placement,
    ...(inits.length > 0 ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: waitingMains,
  };
}

function cond(type: string, status: Condition['status'], at: string): Condition {
  return { type, status, lastProbeTime: null, lastTransitionTime: at };
}

function later(a: string, b: string): string {
  return a > b ? a : b;
}

function base(container: Container): { name: string; image: string; imageID: string } {
  return { name: container.name, image: container.image, imageID: imageId(container.image) };
}

function running(pod: Pod, container: Container, since: string): ContainerStatus {
  return {
    ...base(container),
    containerID: containerId(pod, container.name),
    ready: true,
    restartCount: 0,
    started: true,
    state: { running: { startedAt: since } },
  };
}

function completedInit(pod: Pod, container: Container, at: string): ContainerStatus {
  return {
    ...base(container),
    containerID: containerId(pod, container.name),
    ready: true,
    restartCount: 0,
    started: false,
    state: {
      terminated: {
        containerID: containerId(pod, container.name),
        exitCode: 0,
        finishedAt: at,
        reason: 'Completed',
        startedAt: at,
      },
    },
  };
}

function waiting(container: Container, reason: string): ContainerStatus {
  return {
    ...base(container),
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason } },
  };
}

function crashLooping(pod: Pod, container: Container, runtime: PodRuntime): ContainerStatus {
  const id = containerId(pod, `${container.name}-${runtime.restarts}`);
  return {
    ...base(container),
    containerID: id,
    ready: false,
    restartCount: runtime.restarts,
    started: false,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${Math.min(300, 10 * 2 ** Math.max(0, runtime.restarts - 1))}s restarting failed container=${container.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
      },
    },
    lastState: {
      terminated: {
        containerID: id,
        exitCode: 1,
        reason: 'Error',
        message: CONFIG_INIT_FAILURE,
        startedAt: runtime.lastCrashAt,
        finishedAt: runtime.lastCrashAt,
      },
    },
  };
}

/** The kubelet's first failed pull says ErrImagePull; while it backs off before the next, ImagePullBackOff. */
function imagePullFailing(container: Container, attempts: number): ContainerStatus {
  const message =
    attempts === 1
      ? `failed to pull and unpack image "${container.image}": failed to resolve reference "${container.image}": not found`
      : `Back-off pulling image "${container.image}"`;
  return {
    ...base(container),
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason: attempts === 1 ? 'ErrImagePull' : 'ImagePullBackOff', message } },
  };
}

function containerId(pod: Pod, name: string): string {
  return `containerd://${createHash('sha256').update(`${pod.metadata.uid}/${name}`).digest('hex')}`;
}

function imageId(image: string): string {
  const digest = image.split('@')[1];
  return digest
    ? `${image.split(':')[0]}@${digest}`
    : `${image}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

function podAddress(uid: string): string {
  const bytes = createHash('sha256').update(uid).digest();
  return `10.42.${bytes[0]! % 8}.${2 + (bytes[1]! % 250)}`;
}
