import { randomUUID } from 'node:crypto';
import type { DaemonSet, Labels, PodTemplate } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';

export interface DaemonSetShape {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Labels;
  readonly annotations?: Labels;
  /** The selector's matchLabels; the template carries them too. */
  readonly selector: Labels;
  readonly template: PodTemplate;
  readonly maxUnavailable: number | string;
  readonly created: Date;
}

/** An apps/v1 DaemonSet as the API server stores it after creation (generation 1, empty status). */
export function buildDaemonSet(shape: DaemonSetShape): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: shape.name,
      namespace: shape.namespace,
      uid: randomUUID(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: rfc3339(shape.created),
      labels: shape.labels,
      annotations: { 'deprecated.daemonset.template.generation': '1', ...shape.annotations },
    },
    spec: {
      revisionHistoryLimit: 10,
      selector: { matchLabels: shape.selector },
      template: shape.template,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 0, maxUnavailable: shape.maxUnavailable },
      },
    },
    status: { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 },
  };
}
