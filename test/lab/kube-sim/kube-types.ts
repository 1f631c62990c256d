/**
 * Wire shapes of the objects kube-sim serves: only the fields the simulator reads or writes are typed;
 * everything else rides along as JSON (index signatures) exactly as a real API server would send it.
 */

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string;
  generation?: number;
  generateName?: string;
  labels?: Labels;
  annotations?: Labels;
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string | null;
  lastHeartbeatTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
}

export interface Taint {
  key: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  value?: string;
  timeAdded?: string;
}

export interface Node extends KubeObject {
  spec: { unschedulable?: boolean; taints?: Taint[]; [field: string]: unknown };
  status: {
    conditions: Condition[];
    addresses: { type: string; address: string }[];
    nodeInfo: { kubeletVersion: string; [field: string]: unknown };
    [field: string]: unknown;
  };
}

export interface Container {
  name: string;
  image: string;
  [field: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Labels;
  [field: string]: unknown;
}

export interface PodTemplate {
  metadata: { labels: Labels; annotations?: Labels; [field: string]: unknown };
  spec: PodSpec;
}

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  state: Record<string, unknown>;
  [field: string]: unknown;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status: {
    phase: string;
    conditions?: Condition[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
    [field: string]: unknown;
  };
}

export interface DaemonSet extends KubeObject {
  spec: {
    selector: LabelSelector;
    template: PodTemplate;
    updateStrategy: {
      type: string;
      rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
    };
    revisionHistoryLimit?: number;
    [field: string]: unknown;
  };
  status: Record<string, unknown>;
}

export interface ReplicaSet extends KubeObject {
  spec: { replicas: number; selector: LabelSelector; template: PodTemplate; [field: string]: unknown };
  status: Record<string, unknown>;
}

export interface Deployment extends KubeObject {
  spec: { replicas: number; selector: LabelSelector; template: PodTemplate; [field: string]: unknown };
  status: Record<string, unknown>;
}

export interface ControllerRevision extends KubeObject {
  revision: number;
  data: unknown;
}

export interface PodDisruptionBudget extends KubeObject {
  spec: { selector: LabelSelector; minAvailable?: number | string; maxUnavailable?: number | string };
  status: Record<string, unknown>;
}

/** meta/v1 Status, the body of every error response. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason: string; message: string }[];
  };
  code: number;
}
