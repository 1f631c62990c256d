import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { knownSecretPatterns, REDACTION_PATTERNS } from '../../src/log/redaction-patterns.js';

// The configured values' patterns as a deployment builds them: key-file lines, tokens, short ones.
const known = knownSecretPatterns([
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
  'xoxb-1234-5678-abcdefgh',
  'sig"ning\\secret',
  'ab!1',
  'r3d',
]);
const patterns = [
  ...Object.entries(REDACTION_PATTERNS),
  ...known.map((pattern, i) => [`known secrets ${i + 1}`, pattern] as const),
];

describe('every redaction pattern', () => {
  // One at a time: checks run in parallel starve each other and come back "unknown" on a busy machine.
  it.each(patterns)('%s is safe from super-linear backtracking (recheck)', async (_name, pattern) => {
    const diagnostics = await check(pattern.source, pattern.flags, { timeout: 40_000 });
    const attack =
      diagnostics.status === 'vulnerable'
        ? diagnostics.attack.pattern
        : diagnostics.status === 'unknown'
          ? diagnostics.error
          : undefined;
    expect(diagnostics.status, `${pattern} (attack: ${JSON.stringify(attack)})`).toBe('safe');
  });
});
