import type { KubeObject, OwnerReference } from './kube-types.js';

/** The owner reference with controller: true, if any. */
export function controllerOf(object: KubeObject): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.controller === true);
}
