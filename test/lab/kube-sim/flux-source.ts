import { randomUUID } from 'node:crypto';
import type { KubeObject } from './kube-types.js';
import type { ObjectStore } from './object-store.js';
import { rfc3339 } from './rfc3339.js';

const FLUX_SYSTEM = 'flux-system';

function fluxObject(
  apiVersion: string,
  kind: string,
  at: string,
  spec: Record<string, unknown>,
  status: Record<string, unknown>,
) {
  return {
    apiVersion,
    kind,
    metadata: {
      name: FLUX_SYSTEM,
      namespace: FLUX_SYSTEM,
      uid: randomUUID(),
      resourceVersion: '0',
      creationTimestamp: at,
      generation: 1,
    },
    spec,
    status,
  } as KubeObject;
}

function ready(at: string, reason: string, message: string) {
  return [{ type: 'Ready', status: 'True', reason, message, lastTransitionTime: at, observedGeneration: 1 }];
}

/**
 * What `flux bootstrap --path=<path>` leaves, run again or for the first time: its source serving
 * `sha` and the Kustomization flux-system applying `./<path>` (as gotk-sync.yaml writes it).
 */
export function bootstrapFlux(store: ObjectStore, sha: string, path: string, now: Date): void {
  const applied = `./${path.replace(/^\.\//, '')}`;
  serveGitRevision(store, sha, applied, now);
  const sync = store.get<KubeObject & { spec: Record<string, unknown> }>(
    'kustomizations',
    FLUX_SYSTEM,
    FLUX_SYSTEM,
  );
  if (sync && sync.spec.path !== applied) {
    const generation = (sync.metadata.generation ?? 1) + 1;
    store.update('kustomizations', {
      ...sync,
      metadata: { ...sync.metadata, generation },
      spec: { ...sync.spec, path: applied },
    });
  }
}

/**
 * The GitRepository flux-system serving `sha`
 * of main (`status.artifact.revision` is `main@sha1:<sha>`, as source-controller writes it) and the
 * Kustomization flux-system applying `path` from it. Serving another commit updates the artifact.
 */
export function serveGitRevision(store: ObjectStore, sha: string, path: string, now: Date): void {
  const at = rfc3339(now);
  const revision = `main@sha1:${sha}`;
  const artifact = {
    path: `gitrepository/flux-system/flux-system/${sha}.tar.gz`,
    url: `http://source-controller.flux-system.svc.cluster.local./gitrepository/flux-system/flux-system/${sha}.tar.gz`,
    revision,
    lastUpdateTime: at,
  };
  const existing = store.get<KubeObject & { status: Record<string, unknown> }>(
    'gitrepositories',
    FLUX_SYSTEM,
    FLUX_SYSTEM,
  );
  if (existing) {
    store.update('gitrepositories', { ...existing, status: { ...existing.status, artifact } });
    return;
  }
  store.create(
    'gitrepositories',
    fluxObject(
      'source.toolkit.fluxcd.io/v1',
      'GitRepository',
      at,
      {
        interval: '1m0s',
        ref: { branch: 'main' },
        secretRef: { name: FLUX_SYSTEM },
        url: 'ssh://[email protected]/homelab/homelab',
      },
      {
        observedGeneration: 1,
        artifact,
        conditions: ready(at, 'Succeeded', `stored artifact for revision '${revision}'`),
      },
    ),
  );
  store.create(
    'kustomizations',
    fluxObject(
      'kustomize.toolkit.fluxcd.io/v1',
      'Kustomization',
      at,
      { interval: '10m0s', path, prune: true, sourceRef: { kind: 'GitRepository', name: FLUX_SYSTEM } },
      {
        observedGeneration: 1,
        lastAppliedRevision: revision,
        conditions: ready(at, 'ReconciliationSucceeded', `Applied revision: ${revision}`),
      },
    ),
  );
}
