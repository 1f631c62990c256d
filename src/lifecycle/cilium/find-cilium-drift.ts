import { isDeepStrictEqual } from 'node:util';
import { API_HOST_SYMBOL, normaliseApiHost, valueAt } from './cilium-values.js';

/** Where a parity field is written or running: the three files at HEAD, the live release, the live DaemonSet. */
export type DriftPlace = 'helmrelease' | 'template' | 'reference' | 'live values' | 'live DaemonSet';

export interface DriftDifference {
  readonly field: string;
  readonly place: DriftPlace;
  /** What that place says (JSON; "missing" when it does not set the field). */
  readonly value: string;
  /** What the other places agree on. */
  readonly expected: string;
}

const MAX_UNAVAILABLE = 'updateStrategy.rollingUpdate.maxUnavailable';

/**
 * Every place whose value of a parity field differs from what most places say (on a tie, the
 * place listed first, the HelmRelease file). k8sServiceHost is compared as the API host: the files'
 * two spellings and the live release's rendered address (`apiHost`) are the same thing. The live
 * DaemonSet only carries maxUnavailable.
 */
export function findCiliumDrift(
  values: Readonly<Partial<Record<DriftPlace, Record<string, unknown>>>>,
  fields: readonly string[],
  apiHost: string | undefined,
): DriftDifference[] {
  const differences: DriftDifference[] = [];
  for (const field of fields) {
    const seen = (Object.entries(values) as [DriftPlace, Record<string, unknown>][])
      .filter(([place]) => place !== 'live DaemonSet' || field === MAX_UNAVAILABLE)
      .map(([place, placeValues]) => {
        const raw = valueAt(placeValues, field);
        const isApiHost = field === 'k8sServiceHost' && apiHost !== undefined && raw === apiHost;
        const value =
          field === 'k8sServiceHost' ? (isApiHost ? API_HOST_SYMBOL : normaliseApiHost(raw)) : raw;
        return { place, value };
      });
    const expected = majority(seen);
    for (const { place, value } of seen) {
      if (!isDeepStrictEqual(value, expected)) {
        differences.push({ field, place, value: shown(value), expected: shown(expected) });
      }
    }
  }
  return differences;
}

function majority(seen: readonly { place: DriftPlace; value: unknown }[]): unknown {
  let best: { value: unknown; count: number } | undefined;
  for (const candidate of seen) {
    const count = seen.filter((other) => isDeepStrictEqual(other.value, candidate.value)).length;
    if (!best || count > best.count) best = { value: candidate.value, count };
  }
  return best?.value;
}

function shown(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}

/** "template: k8sServicePort is 6444 (elsewhere 6443)" */
export function describeDifference(difference: DriftDifference): string {
  return `${difference.place}: ${difference.field} is ${difference.value} (elsewhere ${difference.expected})`;
}
