/** The parts of Kubernetes objects the deploy tests look at; parsed YAML is cast to these. */

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

export interface EnvVar {
  name: string;
  value?: unknown;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
  exec?: { command: unknown[] };
  tcpSocket?: { port: number | string };
}

export interface ContainerSecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
}

export interface Container {
  name: string;
  image: string;
  command?: unknown[];
  args?: unknown[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: ContainerSecurityContext;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface Volume {
  name: string;
  configMap?: { name: string };
  secret?: { secretName: string; defaultMode?: number };
  emptyDir?: { medium?: string; sizeLimit?: string };
  persistentVolumeClaim?: { claimName: string };
}

export interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    fsGroup?: number;
    seccompProfile?: { type: string };
  };
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
}

export interface Workload extends K8sObject {
  spec: {
    replicas?: number;
    serviceName?: string;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: PodSpec;
    };
    volumeClaimTemplates?: {
      metadata: { name: string };
      spec: { resources: { requests: { storage: string } } };
    }[];
  };
}

export interface ServiceObject extends K8sObject {
  spec: {
    clusterIP?: string;
    selector: Record<string, string>;
    ports: { name?: string; port: number; targetPort?: number | string }[];
  };
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyRule {
  from?: NetworkPolicyPeer[];
  to?: NetworkPolicyPeer[];
  ports?: { port: number | string; protocol?: string }[];
}

export interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes: string[];
    ingress?: NetworkPolicyRule[];
    egress?: NetworkPolicyRule[];
  };
}

export interface SecretObject extends K8sObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  sops?: unknown;
}

export interface IngressObject extends K8sObject {
  spec: {
    tls?: { hosts: string[]; secretName: string }[];
    rules: {
      host: string;
      http: {
        paths: {
          path: string;
          pathType: string;
          backend: { service: { name: string; port: { name?: string; number?: number } } };
        }[];
      };
    }[];
  };
}
