import type { ValuesSource } from './cilium-values.js';

/**
 * The runbook's documented parity contract (kubeProxyReplacement, k8sServiceHost, k8sServicePort)
 * plus the field the maxUnavailable commit added to all three places.
 */
export const DOCUMENTED_PARITY_FIELDS: readonly string[] = [
  'kubeProxyReplacement',
  'k8sServiceHost',
  'k8sServicePort',
  'updateStrategy.rollingUpdate.maxUnavailable',
];

export interface ParityFields {
  readonly fields: readonly string[];
  /** Where the list came from, as the preflight reports it. */
  readonly source: string;
}

/**
 * The fields that must agree across the three files: every field any of them marks `# [parity]`,
 * and always the documented contract. Files that mark nothing are no reason to refuse: the
 * documented contract still holds them together.
 */
export function chooseParityFields(marked: Readonly<Record<ValuesSource, readonly string[]>>): ParityFields {
  const markedFields = [...new Set(Object.values(marked).flat())];
  const fields = [...new Set([...markedFields, ...DOCUMENTED_PARITY_FIELDS])];
  if (markedFields.length === 0) {
    return {
      fields,
      source:
        "the runbook's documented contract (kubeProxyReplacement, k8sServiceHost, k8sServicePort) plus " +
        'updateStrategy.rollingUpdate.maxUnavailable, as no file marks a field # [parity]',
    };
  }
  const counts = (Object.entries(marked) as [ValuesSource, readonly string[]][])
    .map(([source, list]) => `${source} ${list.length}`)
    .join(', ');
  return {
    fields,
    source: `the # [parity] markers (${counts}) and the runbook's documented contract`,
  };
}
