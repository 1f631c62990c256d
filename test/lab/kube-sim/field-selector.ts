import { badRequest } from './api-status.js';
import type { KubeObject } from './kube-types.js';
import type { ResourceInfo } from './resources.js';

export type FieldPredicate = (object: KubeObject) => boolean;

/** Parses a fieldSelector (`a=b,c!=d`), refusing fields the real server does not index for this resource. */
export function parseFieldSelector(text: string, resource: ResourceInfo): FieldPredicate {
  const allowed = new Set(['metadata.name', 'metadata.namespace', ...resource.fieldLabels]);
  const terms = text
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map((term) => {
      const match = /^([A-Za-z.]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!match) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
      const [, field, operator, value] = match as unknown as [string, string, string, string];
      if (!allowed.has(field)) throw badRequest(`field label not supported: ${field}`);
      return { field, negate: operator === '!=', value };
    });
  return (object) =>
    terms.every(({ field, negate, value }) => (fieldValue(object, field) === value) !== negate);
}

function fieldValue(object: KubeObject, field: string): string {
  let current: unknown = object;
  for (const part of field.split('.')) {
    current =
      current !== null && typeof current === 'object'
        ? (current as Record<string, unknown>)[part]
        : undefined;
  }
  if (current === undefined || current === null)
    return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : '';
  return String(current);
}
