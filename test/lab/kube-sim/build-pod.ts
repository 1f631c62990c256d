import { randomUUID } from 'node:crypto';
import type { KubeObject, Labels, Pod, PodTemplate } from './kube-types.js';
import { randomSuffix } from './names.js';
import { rfc3339 } from './rfc3339.js';

export interface PodShape {
  readonly owner: KubeObject;
  readonly template: PodTemplate;
  /** Labels the controller adds (controller-revision-hash, pod-template-generation). */
  readonly extraLabels?: Labels;
  readonly nodeName?: string;
  readonly created: Date;
  /** A DaemonSet pod: pinned to its node by affinity, tolerating node conditions. */
  readonly daemon: boolean;
}

/** DaemonSet pods tolerate what would otherwise keep them off or evict them from their node. */
const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** A pod a controller creates from its template: generateName, owner reference, defaults. */
export function buildPod(shape: PodShape): Pod {
  const { owner, template } = shape;
  const templateTolerations = (template.spec.tolerations as unknown[] | undefined) ?? [];
  const affinity =
    shape.daemon && shape.nodeName !== undefined ? { affinity: nodeAffinity(shape.nodeName) } : {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${owner.metadata.name}-${randomSuffix()}`,
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace!,
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: rfc3339(shape.created),
      labels: { ...template.metadata.labels, ...shape.extraLabels },
      ...(template.metadata.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata.name,
          uid: owner.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...structuredClone(template.spec),
      ...affinity,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [...templateTolerations, ...(shape.daemon ? DAEMON_TOLERATIONS : DEFAULT_TOLERATIONS)],
      ...(shape.nodeName !== undefined ? { nodeName: shape.nodeName } : {}),
    },
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  };
}

function nodeAffinity(nodeName: string): unknown {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
}
