import type { Status } from './kube-types.js';
import { qualifiedName, type ResourceInfo } from './resources.js';

/** A request the simulated API server refuses; carries the meta/v1 Status it answers with. */
export class KubeApiError extends Error {
  readonly status: Status;

  constructor(status: Status) {
    super(status.message);
    this.name = 'KubeApiError';
    this.status = status;
  }
}

export function failure(code: number, reason: string, message: string, details?: Status['details']): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export function success(code: number, details?: Status['details']): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details ? { details } : {}),
    code,
  };
}

export function badRequest(message: string): KubeApiError {
  return new KubeApiError(failure(400, 'BadRequest', message));
}

export function notFound(resource: ResourceInfo, name: string): KubeApiError {
  const details = { name, ...(resource.group ? { group: resource.group } : {}), kind: resource.plural };
  return new KubeApiError(
    failure(404, 'NotFound', `${qualifiedName(resource)} "${name}" not found`, details),
  );
}

export function pathNotFound(): KubeApiError {
  return new KubeApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
}

export function methodNotAllowed(): KubeApiError {
  return new KubeApiError(
    failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
  );
}

export function invalid(
  resource: ResourceInfo,
  name: string,
  field: string,
  value: unknown,
  why: string,
): KubeApiError {
  const message = `${resource.kind}.${resource.group || 'core'} "${name}" is invalid: ${field}: Invalid value: ${JSON.stringify(value)}: ${why}`;
  const details = {
    name,
    ...(resource.group ? { group: resource.group } : {}),
    kind: resource.kind,
    causes: [
      { reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${why}`, field },
    ],
  };
  return new KubeApiError(failure(422, 'Invalid', message, details as Status['details']));
}

export const UNAUTHORIZED: Status = failure(401, 'Unauthorized', 'Unauthorized');

/** What RBAC answers a request its subject may not make (the API server's wording). */
export function forbidden(verb: string, resource: ResourceInfo, namespace?: string, name?: string): Status {
  const what = resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
  const where = namespace === undefined ? 'at the cluster scope' : `in the namespace "${namespace}"`;
  return failure(
    403,
    'Forbidden',
    `${what}${name === undefined ? '' : ` "${name}"`} is forbidden: User "system:serviceaccount:cluster-bot:cluster-bot" cannot ${verb} resource "${resource.plural}" in API group "${resource.group}" ${where}`,
    { ...(name !== undefined && { name }), group: resource.group, kind: resource.plural },
  );
}
