import { badRequest } from './api-status.js';
import type { LabelSelector, Labels } from './kube-types.js';

export type LabelPredicate = (labels: Labels | undefined) => boolean;

/** Parses a labelSelector query string (`k=v,k2!=v2,k3 in (a,b),!k4,k5`) as the API server does. */
export function parseLabelSelector(text: string): LabelPredicate {
  const requirements = splitTopLevel(text.trim()).map(parseRequirement);
  return (labels) => requirements.every((matches) => matches(labels ?? {}));
}

/** Matches a structured selector (matchLabels + matchExpressions), as in a PDB or ReplicaSet spec. */
export function matchesLabelSelector(selector: LabelSelector, labels: Labels | undefined): boolean {
  const present = labels ?? {};
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => present[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in present && values.includes(present[key]!);
      case 'NotIn':
        return !(key in present) || !values.includes(present[key]!);
      case 'Exists':
        return key in present;
      case 'DoesNotExist':
        return !(key in present);
      default:
        return false;
    }
  });
  return byLabels && byExpressions;
}

function splitTopLevel(text: string): string[] {
  if (text === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

const KEY = '[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?';
const VALUE = '([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?';

function parseRequirement(requirement: string): (labels: Labels) => boolean {
  const set = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^)]*)\\)$`).exec(requirement);
  if (set) {
    const key = set[1]!;
    const values = set[4]!.split(',').map((v) => v.trim());
    return set[3] === 'in'
      ? (l) => key in l && values.includes(l[key]!)
      : (l) => !(key in l) || !values.includes(l[key]!);
  }
  const equality = new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`).exec(requirement);
  if (equality) {
    const key = equality[1]!;
    const value = equality[4]!;
    return equality[3] === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  const exists = new RegExp(`^(!?)\\s*(${KEY})$`).exec(requirement);
  if (exists) {
    const key = exists[2]!;
    return exists[1] === '!' ? (l) => !(key in l) : (l) => key in l;
  }
  throw badRequest(`unable to parse requirement: ${JSON.stringify(requirement)}`);
}
