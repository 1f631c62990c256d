import { isDeepStrictEqual } from 'node:util';
import { checkValueRules } from './cilium-value-rules.js';
import { normaliseApiHost, type ValuesSource, valueAt } from './cilium-values.js';

export const SOURCE_NAMES: Readonly<Record<ValuesSource, string>> = {
  helmrelease: 'platform/cilium/helmrelease.yaml',
  template: 'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2',
  reference: 'platform/cilium/values.yaml',
};

/**
 * The spelling half of the preflight: each file meets the value rules (checkValueRules), and every
 * parity field (see chooseParityFields) is equal across the three (k8sServiceHost only as two
 * spellings of the API host). It alone would not have stopped the incident: `{{ k3s_api_host }}`
 * spelled right can still render empty, so the preflight also resolves what the spellings render
 * (checkApiHostRender, checkFluxApiHost).
 */
export function checkCiliumParity(
  files: Readonly<Record<ValuesSource, Record<string, unknown>>>,
  parityFields: readonly string[],
): string[] {
  const sources = Object.keys(SOURCE_NAMES) as ValuesSource[];
  const problems = sources.flatMap((source) => checkValueRules(files[source], SOURCE_NAMES[source]));
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
