import { isDeepStrictEqual } from 'node:util';
import { normaliseApiHost, type ValuesSource, valueAt } from './cilium-values.js';

export const SOURCE_NAMES: Readonly<Record<ValuesSource, string>> = {
  helmrelease: 'platform/cilium/helmrelease.yaml',
  template: 'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2',
  reference: 'platform/cilium/values.yaml',
};

/**
 * The preflight that would have stopped the incident: k8sServiceHost set in every file, every
 * parity field (see chooseParityFields) equal across the three (k8sServiceHost only as two
 * spellings of the API host), and maxUnavailable 1 so a bad render stops at the first agent.
 */
export function checkCiliumParity(
  files: Readonly<Record<ValuesSource, Record<string, unknown>>>,
  parityFields: readonly string[],
): string[] {
  const problems: string[] = [];
  const sources = Object.keys(SOURCE_NAMES) as ValuesSource[];
  for (const source of sources) {
    const host = valueAt(files[source], 'k8sServiceHost');
    if (host === undefined || host === null || String(host).trim() === '') {
      problems.push(`k8sServiceHost is empty in ${SOURCE_NAMES[source]}`);
    } else if (/REPLACE-ME/i.test(String(host))) {
      problems.push(`k8sServiceHost is still "${String(host)}" in ${SOURCE_NAMES[source]}`);
    }
    const maxUnavailable = valueAt(files[source], 'updateStrategy.rollingUpdate.maxUnavailable');
    if (maxUnavailable !== 1) {
      problems.push(
        `updateStrategy.rollingUpdate.maxUnavailable is ${maxUnavailable === undefined ? 'unset (chart default 2)' : JSON.stringify(maxUnavailable)} in ${SOURCE_NAMES[source]}, must be 1`,
      );
    }
  }
  for (const field of parityFields) {
    const values = sources.map((source) => {
      const raw = valueAt(files[source], field);
      return field === 'k8sServiceHost' ? normaliseApiHost(raw) : raw;
    });
    if (values.every((value) => value === undefined)) continue;
    if (values.every((value) => isDeepStrictEqual(value, values[0]))) continue;
    const shown = sources.map(
      (source, i) => `${SOURCE_NAMES[source]}=${JSON.stringify(values[i]) ?? 'missing'}`,
    );
    problems.push(`parity field ${field} differs: ${shown.join(', ')}`);
  }
  return problems;
}
