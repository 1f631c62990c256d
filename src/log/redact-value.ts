import type { Redact } from './create-redactor.js';

const UNREDACTABLE_VALUE = '[REDACTED: unredactable value]';

/**
 * A copy of a value with every string in it (keys too) redacted, made before the value is
 * serialised: once it is JSON, a quote is `\"` and a secret no longer looks like itself. Errors
 * become plain objects (type, message, stack, their own fields), as loggers print them. Total:
 * a value it cannot walk comes out as a mask.
 */
export function redactValue<T>(value: T, redact: Redact): T {
  try {
    return walk(value, redact, new Set()) as T;
  } catch {
    return UNREDACTABLE_VALUE as T;
  }
}

function walk(value: unknown, redact: Redact, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '[Circular]';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, redact, ancestors));
    if (value instanceof Error) return walk(errorFields(value), redact, ancestors);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(value), redact, ancestors);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[redact(key)] = walk(item, redact, ancestors);
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

function errorFields(error: Error): Record<string, unknown> {
  const cause = (error as { cause?: unknown }).cause;
  return {
    ...error,
    type: error.constructor?.name ?? error.name,
    message: error.message,
    stack: error.stack,
    ...(cause === undefined ? {} : { cause }),
  };
}
