/** The resource types kube-sim serves, named as the real API server names them in discovery. */
export interface ResourceInfo {
  /** Plural, as in the URL path ("daemonsets"). */
  readonly plural: string;
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  /** Field selectors the real server accepts besides metadata.name / metadata.namespace. */
  readonly fieldLabels: readonly string[];
}

export const RESOURCES: readonly ResourceInfo[] = [
  {
    plural: 'namespaces',
    group: '',
    version: 'v1',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    fieldLabels: ['status.phase'],
  },
  {
    plural: 'nodes',
    group: '',
    version: 'v1',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    fieldLabels: ['spec.unschedulable'],
  },
  {
    plural: 'configmaps',
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    namespaced: true,
    shortNames: ['cm'],
    fieldLabels: [],
  },
  {
    plural: 'pods',
    group: '',
    version: 'v1',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    fieldLabels: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  },
  {
    plural: 'daemonsets',
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    namespaced: true,
    shortNames: ['ds'],
    fieldLabels: [],
  },
  {
    plural: 'deployments',
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    fieldLabels: [],
  },
  {
    plural: 'replicasets',
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    namespaced: true,
    shortNames: ['rs'],
    fieldLabels: ['status.replicas'],
  },
  {
    plural: 'controllerrevisions',
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    namespaced: true,
    shortNames: [],
    fieldLabels: [],
  },
  {
    plural: 'poddisruptionbudgets',
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    shortNames: ['pdb'],
    fieldLabels: [],
  },
  // Flux's CRD: served whether or not a HelmRelease exists (Flux is installed on the lab's clusters).
  {
    plural: 'helmreleases',
    group: 'helm.toolkit.fluxcd.io',
    version: 'v2',
    kind: 'HelmRelease',
    namespaced: true,
    shortNames: ['hr'],
    fieldLabels: [],
  },
  // Flux's source and kustomize CRDs: `flux bootstrap`'s GitRepository and Kustomization flux-system.
  {
    plural: 'gitrepositories',
    group: 'source.toolkit.fluxcd.io',
    version: 'v1',
    kind: 'GitRepository',
    namespaced: true,
    shortNames: ['gitrepo'],
    fieldLabels: [],
  },
  {
    plural: 'kustomizations',
    group: 'kustomize.toolkit.fluxcd.io',
    version: 'v1',
    kind: 'Kustomization',
    namespaced: true,
    shortNames: ['ks'],
    fieldLabels: [],
  },
];

export type ResourceName =
  | 'namespaces'
  | 'nodes'
  | 'configmaps'
  | 'pods'
  | 'daemonsets'
  | 'deployments'
  | 'replicasets'
  | 'controllerrevisions'
  | 'poddisruptionbudgets'
  | 'helmreleases'
  | 'gitrepositories'
  | 'kustomizations';

export function findResource(group: string, version: string, plural: string): ResourceInfo | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

export function resourceByName(plural: ResourceName): ResourceInfo {
  const found = RESOURCES.find((r) => r.plural === plural);
  if (!found) throw new Error(`kube-sim: unknown resource ${plural}`);
  return found;
}

export function apiVersionOf(resource: ResourceInfo): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** "pods" or "daemonsets.apps": how error messages name a resource. */
export function qualifiedName(resource: ResourceInfo): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}
