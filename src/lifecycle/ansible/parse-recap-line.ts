import type { RecapCounts } from './ansible-event.js';

const RECAP_LINE = /^(\S+)\s+:\s+(ok=\d+.*)$/;

/** `k3s-dev-1   : ok=25 changed=10 unreachable=0 failed=0 skipped=3 rescued=0 ignored=0`. */
export function parseRecapLine(line: string): { host: string; counts: RecapCounts } | null {
  const match = RECAP_LINE.exec(line.trimEnd());
  if (!match) return null;
  const values: Record<string, number> = {};
  for (const pair of match[2]!.split(/\s+/)) {
    const [key, value] = pair.split('=');
    if (key && value && /^\d+$/.test(value)) values[key] = Number(value);
  }
  const count = (key: string) => values[key] ?? 0;
  return {
    host: match[1]!,
    counts: {
      ok: count('ok'),
      changed: count('changed'),
      unreachable: count('unreachable'),
      failed: count('failed'),
      skipped: count('skipped'),
      rescued: count('rescued'),
      ignored: count('ignored'),
    },
  };
}
