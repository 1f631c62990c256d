import { pathNotFound } from './api-status.js';
import { findResource, type ResourceInfo } from './resources.js';

export interface ApiTarget {
  readonly resource: ResourceInfo;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  /** The deprecated /api/v1/watch/... form. */
  readonly legacyWatch: boolean;
}

/**
 * Splits a resource path (/api/v1/..., /apis/{group}/{version}/...) into what it addresses.
 * Undefined for a group/version root (discovery); a KubeApiError 404 for anything not served.
 */
export function parseApiPath(pathname: string): ApiTarget | undefined {
  const segments = pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments[1] === 'v1') [group, version, rest] = ['', 'v1', segments.slice(2)];
  else if (segments[0] === 'apis' && segments.length >= 3)
    [group, version, rest] = [segments[1]!, segments[2]!, segments.slice(3)];
  else return undefined;
  if (rest.length === 0) return undefined;
  const legacyWatch = rest[0] === 'watch';
  if (legacyWatch) rest = rest.slice(1);
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const resource = findResource(group, version, rest[0] ?? '');
  if (resource === undefined || rest.length > 3) throw pathNotFound();
  if (namespace !== undefined && !resource.namespaced) throw pathNotFound();
  if (namespace === undefined && resource.namespaced && rest.length > 1) throw pathNotFound();
  return {
    resource,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(rest[1] !== undefined ? { name: rest[1] } : {}),
    ...(rest[2] !== undefined ? { subresource: rest[2] } : {}),
    legacyWatch,
  };
}
