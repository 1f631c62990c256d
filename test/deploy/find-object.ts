import type { K8sObject } from './k8s-types.js';

/** The one object of that kind and name; a missing or duplicated one fails the test that asked. */
export function findObject<T extends K8sObject>(
  objects: readonly K8sObject[],
  kind: string,
  name: string,
): T {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind}/${name}, found ${found.length}`);
  return found[0] as T;
}
