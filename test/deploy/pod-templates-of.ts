import type { K8sObject, PodSpec, Workload } from './k8s-types.js';

const POD_OWNERS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

/** The pod template of every workload, named `Kind/name`, so a failure says which one. */
export function podTemplatesOf(objects: readonly K8sObject[]): { owner: string; spec: PodSpec }[] {
  return objects
    .filter((o) => POD_OWNERS.includes(o.kind))
    .map((o) => ({ owner: `${o.kind}/${o.metadata.name}`, spec: (o as Workload).spec.template.spec }));
}
