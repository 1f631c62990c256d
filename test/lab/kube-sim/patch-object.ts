import { badRequest, failure, invalid, KubeApiError, notFound } from './api-status.js';
import { applyJsonPatch } from './json-patch.js';
import type { DaemonSet, KubeObject } from './kube-types.js';
import { applyMergePatch, isPlainObject } from './merge-patch.js';
import type { ObjectStore } from './object-store.js';
import type { ResourceInfo, ResourceName } from './resources.js';
import { stableStringify } from './stable-stringify.js';

const GENERATION_TRACKED = new Set(['daemonsets', 'deployments', 'replicasets', 'poddisruptionbudgets']);

/**
 * PATCH of one object, with the real server's bookkeeping: merge, strategic-merge (as merge) and JSON
 * patch; immutable metadata kept; a stale metadata.resourceVersion in the patch → 409; a spec change
 * bumps generation (and, for a DaemonSet template change, the template generation); a no-op is no write.
 */
export function patchObject(
  store: ObjectStore,
  resource: ResourceInfo,
  namespace: string | undefined,
  name: string,
  contentType: string,
  patch: unknown,
): KubeObject {
  const plural = resource.plural as ResourceName;
  const current = store.get(plural, namespace, name);
  if (current === undefined) throw notFound(resource, name);
  const patched = applyPatch(current, contentType, patch);
  if (!isPlainObject(patched) || !isPlainObject(patched.metadata))
    throw badRequest('the patched object is not an object');
  const expectedVersion = (patched.metadata as { resourceVersion?: unknown }).resourceVersion;
  if (expectedVersion !== undefined && expectedVersion !== current.metadata.resourceVersion) {
    throw new KubeApiError(
      failure(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${resource.plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        {
          name,
          ...(resource.group ? { group: resource.group } : {}),
          kind: resource.plural,
        },
      ),
    );
  }
  const next = patched as KubeObject;
  next.apiVersion = current.apiVersion;
  next.kind = current.kind;
  const { uid, creationTimestamp, generation, resourceVersion } = current.metadata;
  next.metadata = {
    ...next.metadata,
    name,
    uid,
    creationTimestamp,
    resourceVersion,
    ...(generation !== undefined ? { generation } : {}),
  };
  if (namespace !== undefined) next.metadata.namespace = namespace;
  if (plural === 'daemonsets') defaultAndValidateDaemonSet(resource, next as DaemonSet);
  if (plural === 'nodes') normaliseNode(next);
  if (GENERATION_TRACKED.has(plural) && stableStringify(next.spec) !== stableStringify(current.spec)) {
    const bumped = (generation ?? 1) + 1;
    next.metadata.generation = bumped;
    const templateChanged =
      stableStringify((next as DaemonSet).spec.template) !==
      stableStringify((current as DaemonSet).spec.template);
    if (plural === 'daemonsets' && templateChanged) {
      next.metadata.annotations = {
        ...next.metadata.annotations,
        'deprecated.daemonset.template.generation': String(bumped),
      };
    }
  }
  return store.update(plural, next);
}

function applyPatch(current: KubeObject, contentType: string, patch: unknown): unknown {
  switch (contentType.split(';')[0]!.trim().toLowerCase()) {
    case 'application/merge-patch+json':
    case 'application/strategic-merge-patch+json':
      if (!isPlainObject(patch)) throw badRequest('the body of the request was not a JSON object');
      return applyMergePatch(current, patch);
    case 'application/json-patch+json':
      return applyJsonPatch(current, patch);
    default:
      throw new KubeApiError(
        failure(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`,
        ),
      );
  }
}

/** API defaulting and validation of spec.updateStrategy, so a bad maxUnavailable is refused with 422. */
function defaultAndValidateDaemonSet(resource: ResourceInfo, ds: DaemonSet): void {
  const name = ds.metadata.name;
  const strategy = ds.spec.updateStrategy ?? { type: 'RollingUpdate' };
  ds.spec.updateStrategy = strategy;
  if (strategy.type === 'OnDelete') {
    delete strategy.rollingUpdate;
    return;
  }
  if (strategy.type !== 'RollingUpdate') {
    throw invalid(
      resource,
      name,
      'spec.updateStrategy.type',
      strategy.type,
      'supported values: "OnDelete", "RollingUpdate"',
    );
  }
  const rolling = { maxUnavailable: 1, maxSurge: 0, ...strategy.rollingUpdate };
  strategy.rollingUpdate = rolling;
  for (const [field, value] of Object.entries(rolling)) {
    const ok =
      (typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
      (typeof value === 'string' && /^\d+%$/.test(value));
    if (!ok)
      throw invalid(
        resource,
        name,
        `spec.updateStrategy.rollingUpdate.${field}`,
        value,
        'must be a non-negative integer or a percentage',
      );
  }
  const zero = (v: number | string) => v === 0 || v === '0%';
  if (zero(rolling.maxUnavailable) && zero(rolling.maxSurge)) {
    throw invalid(
      resource,
      name,
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      rolling.maxUnavailable,
      'may not be 0 when `maxSurge` is 0',
    );
  }
}

/** `unschedulable: false` is the zero value: the real server omits it, as after an uncordon. */
function normaliseNode(node: KubeObject): void {
  const spec = node.spec as { unschedulable?: boolean } | undefined;
  if (spec?.unschedulable === false) delete spec.unschedulable;
}
