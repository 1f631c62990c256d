import { randomUUID } from 'node:crypto';
import type { Container, Deployment, Labels, ReplicaSet } from './kube-types.js';
import { computeTemplateHash } from './names.js';
import { rfc3339 } from './rfc3339.js';

export interface WorkloadShape {
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  readonly labels: Labels;
  readonly containers: Container[];
  readonly created: Date;
}

/** A Deployment and the one ReplicaSet it owns (revision 1), as after `kubectl apply` settled. */
export function buildDeployment(shape: WorkloadShape): { deployment: Deployment; replicaSet: ReplicaSet } {
  const created = rfc3339(shape.created);
  const template = {
    metadata: { labels: shape.labels },
    spec: { containers: shape.containers, restartPolicy: 'Always', terminationGracePeriodSeconds: 30 },
  };
  const hash = computeTemplateHash(template);
  const deployment: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: shape.name,
      namespace: shape.namespace,
      uid: randomUUID(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: created,
      labels: shape.labels,
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      progressDeadlineSeconds: 600,
      replicas: shape.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: shape.labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template,
    },
    status: {},
  };
  const rsLabels = { ...shape.labels, 'pod-template-hash': hash };
  const replicaSet: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${shape.name}-${hash}`,
      namespace: shape.namespace,
      uid: randomUUID(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: created,
      labels: rsLabels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(shape.replicas),
        'deployment.kubernetes.io/max-replicas': String(shape.replicas + 1),
        'deployment.kubernetes.io/revision': '1',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: shape.name,
          uid: deployment.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: shape.replicas,
      selector: { matchLabels: rsLabels },
      template: { ...template, metadata: { labels: rsLabels } },
    },
    status: { replicas: 0 },
  };
  return { deployment, replicaSet };
}
