/**
 * RFC 7386 JSON merge patch: objects merge key by key, null deletes, anything else (lists included)
 * replaces. kube-sim also applies strategic-merge patches this way: for the fields the bot touches
 * (spec.unschedulable, updateStrategy, annotations) the result is the same.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue; // strategic-merge directives ($patch, $retainKeys): not modelled
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
