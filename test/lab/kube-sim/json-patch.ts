import { badRequest } from './api-status.js';
import { isPlainObject } from './merge-patch.js';

interface Operation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

/** RFC 6902 JSON patch (add, remove, replace, test, copy, move) on a clone of target. */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations))
    throw badRequest('the server rejected our request due to an error in our request');
  let document = structuredClone(target);
  for (const operation of operations as Operation[]) {
    switch (operation.op) {
      case 'add':
        document = put(document, pointer(operation.path), operation.value, 'add');
        break;
      case 'replace':
        document = put(document, pointer(operation.path), operation.value, 'replace');
        break;
      case 'remove':
        document = remove(document, pointer(operation.path));
        break;
      case 'test':
        if (JSON.stringify(read(document, pointer(operation.path))) !== JSON.stringify(operation.value)) {
          throw badRequest(
            `the server rejected our request due to an error in our request: testing value ${operation.path} failed`,
          );
        }
        break;
      case 'copy':
        document = put(
          document,
          pointer(operation.path),
          structuredClone(read(document, pointer(operation.from ?? ''))),
          'add',
        );
        break;
      case 'move': {
        const value = read(document, pointer(operation.from ?? ''));
        document = put(
          remove(document, pointer(operation.from ?? '')),
          pointer(operation.path),
          value,
          'add',
        );
        break;
      }
      default:
        throw badRequest(`Unexpected kind: ${operation.op}`);
    }
  }
  return document;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`invalid JSON pointer ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function read(document: unknown, parts: string[]): unknown {
  let current = document;
  for (const part of parts) {
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isPlainObject(current) && part in current) current = current[part];
    else
      throw badRequest(
        `the server rejected our request due to an error in our request: missing path /${parts.join('/')}`,
      );
  }
  return current;
}

function put(document: unknown, parts: string[], value: unknown, mode: 'add' | 'replace'): unknown {
  if (parts.length === 0) return value;
  const parent = read(document, parts.slice(0, -1));
  const last = parts.at(-1)!;
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (mode === 'add') parent.splice(index, 0, value);
    else parent[index] = value;
  } else if (isPlainObject(parent)) {
    if (mode === 'replace' && !(last in parent))
      throw badRequest(
        `the server rejected our request due to an error in our request: replace of missing path /${parts.join('/')}`,
      );
    parent[last] = value;
  } else {
    throw badRequest(
      `the server rejected our request due to an error in our request: bad path /${parts.join('/')}`,
    );
  }
  return document;
}

function remove(document: unknown, parts: string[]): unknown {
  read(document, parts);
  const parent = read(document, parts.slice(0, -1));
  const last = parts.at(-1)!;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (isPlainObject(parent)) delete parent[last];
  return document;
}
