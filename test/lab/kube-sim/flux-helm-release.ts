import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from './kube-types.js';
import type { ObjectStore } from './object-store.js';
import { rfc3339 } from './rfc3339.js';

/** The fields of Flux's HelmRelease (helm.toolkit.fluxcd.io/v2) the lab reads or writes. */
export interface HelmRelease extends KubeObject {
  spec: {
    interval: string;
    suspend?: boolean;
    chart: { spec: { chart: string; version: string; sourceRef: Record<string, string> } };
    values: Record<string, unknown>;
    [field: string]: unknown;
  };
  status: {
    observedGeneration: number;
    conditions: {
      type: string;
      status: string;
      reason: string;
      message: string;
      lastTransitionTime: string;
      observedGeneration: number;
    }[];
    [field: string]: unknown;
  };
}

export interface HelmReleaseShape {
  /** spec.chart.spec.version (default: the chart version the cluster runs). */
  readonly chartVersion?: string;
  /** Its Ready condition (default true: Flux reconciled it). */
  readonly ready?: boolean;
  /** Starts with spec.suspend true. */
  readonly suspended?: boolean;
  /** spec.values as git holds them, substituted (default: the deployed release's values). */
  readonly values?: Record<string, unknown>;
}

/** The `cilium` HelmRelease Flux adopted Cilium with, as the Helm controller leaves it after a reconcile. */
export function buildCiliumHelmRelease(
  shape: HelmReleaseShape & { chartVersion: string },
  values: Record<string, unknown>,
  created: Date,
): HelmRelease {
  const ready = shape.ready ?? true;
  const at = rfc3339(created);
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: {
      name: 'cilium',
      namespace: 'kube-system',
      uid: randomUUID(),
      resourceVersion: '0',
      creationTimestamp: at,
      generation: 1,
      labels: {
        'kustomize.toolkit.fluxcd.io/name': 'platform',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
    },
    spec: {
      interval: '30m',
      ...(shape.suspended ? { suspend: true } : {}),
      chart: {
        spec: {
          chart: 'cilium',
          version: shape.chartVersion,
          sourceRef: { kind: 'HelmRepository', name: 'cilium', namespace: 'flux-system' },
        },
      },
      values: shape.values ?? values,
    },
    status: {
      observedGeneration: 1,
      conditions: [
        ready
          ? {
              type: 'Ready',
              status: 'True',
              reason: 'UpgradeSucceeded',
              message: `Helm upgrade succeeded for release kube-system/cilium.v2 with chart cilium@${shape.chartVersion}`,
              lastTransitionTime: at,
              observedGeneration: 1,
            }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'UpgradeFailed',
              message: `Helm upgrade failed for release kube-system/cilium with chart cilium@${shape.chartVersion}: context deadline exceeded`,
              lastTransitionTime: at,
              observedGeneration: 1,
            },
      ],
      lastAttemptedRevision: shape.chartVersion,
    },
  };
}

/** `flux suspend|resume helmrelease cilium`: sets spec.suspend; undefined when there is no such HelmRelease. */
export function setSuspended(store: ObjectStore, suspended: boolean): HelmRelease | undefined {
  const release = store.get<HelmRelease>('helmreleases', 'kube-system', 'cilium');
  if (!release) return undefined;
  if ((release.spec.suspend ?? false) === suspended) return release;
  const { suspend: _was, ...spec } = release.spec;
  // A spec change: the generation moves, as the API server does for any custom resource's spec.
  const generation = (release.metadata.generation ?? 1) + 1;
  return store.update('helmreleases', {
    ...release,
    metadata: { ...release.metadata, generation },
    spec: suspended ? { ...spec, suspend: true } : spec,
  });
}

/**
 * The Helm controller's reconcile once a HelmRelease is resumed: the release is upgraded to
 * spec.values when they differ from what runs (`upgrade`), then Ready at the new generation.
 */
export function reconcileResumed(
  store: ObjectStore,
  release: HelmRelease,
  deployed: Record<string, unknown>,
  upgrade: (values: Record<string, unknown>) => void,
  now: Date,
): HelmRelease {
  const changed = !isDeepStrictEqual(release.spec.values, deployed);
  if (changed) upgrade(release.spec.values);
  const generation = release.metadata.generation ?? 1;
  const version = release.spec.chart.spec.version;
  return store.update('helmreleases', {
    ...release,
    status: {
      ...release.status,
      observedGeneration: generation,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: changed ? 'UpgradeSucceeded' : 'ReconciliationSucceeded',
          message: changed
            ? `Helm upgrade succeeded for release kube-system/cilium with chart cilium@${version}`
            : `release in-sync with desired state`,
          lastTransitionTime: rfc3339(now),
          observedGeneration: generation,
        },
      ],
    },
  });
}
