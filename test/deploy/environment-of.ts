import type { Container } from './k8s-types.js';

/**
 * The environment a container would see: literal values as written, with `$(NAME)` replaced by a
 * variable declared before it (as the kubelet does), secretKeyRef values taken from `secrets` by
 * `<secret>/<key>`; an optional reference with no value there is left unset.
 */
export function environmentOf(container: Container, secrets: Record<string, string>): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (ref) {
      const value = secrets[`${ref.name}/${ref.key}`];
      if (value === undefined && !ref.optional)
        throw new Error(`${variable.name}: no ${ref.name}/${ref.key}`);
      if (value !== undefined) environment[variable.name] = value;
    } else if (variable.valueFrom) {
      throw new Error(`${variable.name}: only literal values and secretKeyRef are expected`);
    } else {
      environment[variable.name] = String(variable.value).replace(
        /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
        (text, name: string) => environment[name] ?? text,
      );
    }
  }
  return environment;
}

/** Variables another one takes in with `$(NAME)`: there for the kubelet to expand, not for the bot to read. */
export function expandedNames(container: Container): Set<string> {
  const values = (container.env ?? []).map((variable) => String(variable.value ?? ''));
  return new Set(
    values.flatMap((value) => [...value.matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)].map((m) => m[1]!)),
  );
}
