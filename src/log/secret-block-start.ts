import { REDACTION_PATTERNS } from './redaction-patterns.js';
import { secretKeysIn } from './secret-keys-in.js';

/**
 * A secret key whose value is a YAML block scalar (`password: |`, `k3s_token: !vault >-`): the value
 * is on the lines below, indented deeper than the key. Gives the line's diff marker and indentation.
 */
export function secretBlockStart(line: string): { marker: string; indent: string } | undefined {
  let end = line.length;
  while (end > 0 && ' \t'.includes(line[end - 1]!)) end--;
  while (end > 0 && '-+0123456789'.includes(line[end - 1]!)) end--;
  if (end === 0 || !'|>'.includes(line[end - 1]!)) return undefined;
  end--;
  while (end > 0 && ' \t'.includes(line[end - 1]!)) end--;
  if (line.slice(0, end).endsWith('!vault')) end -= '!vault'.length;
  while (end > 0 && ' \t'.includes(line[end - 1]!)) end--;
  if (line[end - 1] !== ':') return undefined;
  end--;
  while (end > 0 && ' \t"\'\\'.includes(line[end - 1]!)) end--;
  let last: { end: number } | undefined;
  for (const key of secretKeysIn(line.slice(0, end))) last = key;
  if (last?.end !== end) return undefined;
  const [, marker = '', indent = ''] = REDACTION_PATTERNS.lineStart.exec(line) ?? [];
  return { marker, indent };
}
