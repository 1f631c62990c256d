import type { ApiReply } from './api-reply.js';
import { badRequest, methodNotAllowed, notFound, pathNotFound, success } from './api-status.js';
import { discoveryDocument } from './discovery.js';
import { evictPod } from './evict-pod.js';
import { parseFieldSelector } from './field-selector.js';
import type { KubeObject, Pod } from './kube-types.js';
import { parseLabelSelector } from './label-selector.js';
import type { ObjectStore } from './object-store.js';
import { type ApiTarget, parseApiPath } from './parse-api-path.js';
import { patchObject } from './patch-object.js';
import { podLog } from './pod-log.js';
import { apiVersionOf, type ResourceName } from './resources.js';

export interface ApiRequest {
  readonly method: string;
  readonly url: URL;
  readonly contentType: string;
  readonly body: string;
}

/**
 * Answers one authenticated request of the Kubernetes API: discovery, list/get/watch/patch/delete,
 * pod eviction and log. Refusals are thrown as KubeApiError (a Status with its code).
 */
export function handleApiRequest(request: ApiRequest, store: ObjectStore): ApiReply {
  const { method, url } = request;
  if (method === 'GET' && ['/healthz', '/livez', '/readyz'].includes(url.pathname))
    return { code: 200, text: 'ok' };
  const target = parseApiPath(url.pathname);
  if (target === undefined) {
    const document = method === 'GET' ? discoveryDocument(url.pathname, url.host) : undefined;
    if (document === undefined) throw pathNotFound();
    return { code: 200, json: document };
  }
  const { resource, namespace, name, subresource } = target;
  const plural = resource.plural as ResourceName;
  const watchFlag = url.searchParams.get('watch');
  if (method === 'GET' && (target.legacyWatch || watchFlag === 'true' || watchFlag === '1')) {
    return { watch: { resource, query: url.searchParams, matches: selection(target, url.searchParams) } };
  }
  if (name === undefined) {
    if (method !== 'GET') throw methodNotAllowed();
    const items = store
      .list(plural)
      .filter(selection(target, url.searchParams))
      .map(({ apiVersion: _a, kind: _k, ...item }) => item);
    const list = {
      kind: `${resource.kind}List`,
      apiVersion: apiVersionOf(resource),
      metadata: { resourceVersion: String(store.resourceVersion) },
      items,
    };
    return { code: 200, json: list };
  }
  if (subresource === 'eviction' && plural === 'pods') {
    if (method !== 'POST') throw methodNotAllowed();
    const status = evictPod(store, namespace!, name, parseBody(request.body));
    return { code: status.code, json: status };
  }
  if (subresource === 'log' && plural === 'pods' && method === 'GET') {
    const pod = store.get<Pod>('pods', namespace, name);
    if (pod === undefined) throw notFound(resource, name);
    return { code: 200, text: podLog(pod, url.searchParams.get('container')) };
  }
  if (subresource !== undefined && subresource !== 'status') throw pathNotFound();
  switch (method) {
    case 'GET': {
      const object = store.get(plural, namespace, name);
      if (object === undefined) throw notFound(resource, name);
      return { code: 200, json: object };
    }
    case 'PATCH': {
      if (subresource !== undefined) throw methodNotAllowed();
      const patched = patchObject(
        store,
        resource,
        namespace,
        name,
        request.contentType,
        parseBody(request.body),
      );
      return { code: 200, json: patched };
    }
    case 'DELETE': {
      if (subresource !== undefined) throw methodNotAllowed();
      const deleted = store.delete<KubeObject>(plural, namespace, name);
      if (deleted === undefined) throw notFound(resource, name);
      // pods answer with the deleted object; most other resources with a Success Status
      if (plural === 'pods') return { code: 200, json: deleted };
      const details = {
        name,
        ...(resource.group ? { group: resource.group } : {}),
        kind: resource.plural,
        uid: deleted.metadata.uid,
      };
      return { code: 200, json: success(200, details) };
    }
    default:
      throw methodNotAllowed();
  }
}

/** Namespace scope, labelSelector and fieldSelector (and the name, for a watch on one object). */
function selection(target: ApiTarget, query: URLSearchParams): (object: KubeObject) => boolean {
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '', target.resource);
  return (object) =>
    (target.namespace === undefined || object.metadata.namespace === target.namespace) &&
    (target.name === undefined || object.metadata.name === target.name) &&
    labels(object.metadata.labels) &&
    fields(object);
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    throw badRequest(`the body of the request could not be decoded: ${(error as Error).message}`);
  }
}
