import { isDeepStrictEqual } from 'node:util';

export interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove' | 'test';
  path: string;
  value?: unknown;
}

type Container = Record<string, unknown> | unknown[];

/**
 * RFC 6902 add/replace/remove/test, enough for the overlays' patches (kustomize is not on this
 * machine). Mutates the target; a path that does not resolve or a failed `test` throws.
 */
export function applyJsonPatch(target: unknown, operations: readonly JsonPatchOperation[]): void {
  for (const operation of operations) {
    const tokens = operation.path
      .split('/')
      .slice(1)
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop();
    if (last === undefined) throw new Error(`${operation.op} ${operation.path}: the root cannot be patched`);
    const parent = tokens.reduce<unknown>((node, token) => childOf(node, token, operation.path), target);
    if (typeof parent !== 'object' || parent === null) {
      throw new Error(`${operation.op} ${operation.path}: parent is not an object or array`);
    }
    apply(parent as Container, last, operation);
  }
}

function childOf(node: unknown, token: string, path: string): unknown {
  const child = Array.isArray(node) ? node[Number(token)] : (node as Record<string, unknown> | null)?.[token];
  if (child === undefined) throw new Error(`${path}: "${token}" does not exist`);
  return child;
}

function apply(parent: Container, key: string, operation: JsonPatchOperation): void {
  const { op, path, value } = operation;
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`${path}: bad index`);
    if (op === 'add') parent.splice(index, 0, value);
    else if (index >= parent.length) throw new Error(`${op} ${path}: no element there`);
    else if (op === 'replace') parent[index] = value;
    else if (op === 'remove') parent.splice(index, 1);
    else if (!isDeepStrictEqual(parent[index], value)) throw new Error(`test ${path}: value differs`);
    return;
  }
  if (op === 'add') {
    parent[key] = value;
    return;
  }
  if (!(key in parent)) throw new Error(`${op} ${path}: no member there`);
  if (op === 'replace') parent[key] = value;
  else if (op === 'remove') delete parent[key];
  else if (!isDeepStrictEqual(parent[key], value)) throw new Error(`test ${path}: value differs`);
}
