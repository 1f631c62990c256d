import { createLineRedactor } from '../src/lifecycle/redact-lines.js';
import { createRedactor } from '../src/log/create-redactor.js';
import { MAX_CHECKED_LINE } from '../src/log/mask.js';
import { median, round } from './stats.js';

const ROUNDS = 15;

export interface RedactionFigures {
  readonly redaction: {
    /** Characters in each line: the longest a line is read whole. */
    lineChars: number;
    /** Median ms to redact one plain line of that size (ordinary playbook output). */
    plainMs: number;
    /** Median ms for each adversarial line, by what it repeats. */
    adversarialMs: Record<string, number>;
    /** The slowest adversarial line over the plain one. */
    adversarialRatio: number;
    worst: string;
  };
}

const fill = (unit: string) =>
  unit.repeat(Math.ceil(MAX_CHECKED_LINE / unit.length)).slice(0, MAX_CHECKED_LINE);

// Each pattern's worst case: what makes it try again at every position, or scan to the end each time.
const ADVERSARIAL: Record<string, string> = {
  '--tokenx': fill('--tokenx'),
  '--token ': fill('--token '),
  tokentoken: fill('token'),
  'password="\\': fill('password="\\'),
  "api_key='": fill("api_key='"),
  'name: X_PASSWORD': fill('name: X_PASSWORD "value'),
  '-----BEGIN ': fill('-----BEGIN '),
  'BEGIN PRIVATE KEY, no END': fill('-----BEGIN PRIVATE KEY PRIVATE KEY-----'),
  'PuTTY-User-Key-File-': fill('PuTTY-User-Key-File-'),
  'a://b:c@': fill('a://b:c@'),
  '.eyJa': fill('.eyJa'),
  'K10::server:': fill('K10::server:'),
  '$ANSIBLE_VAULT; hex': `$ANSIBLE_VAULT;1.1;AES256${fill('\\n61 ')}`.slice(0, MAX_CHECKED_LINE),
  'xoxb-': fill('xoxb-'),
  'Bearer ': fill('Bearer '),
  'login x password': fill('login x password '),
  'a known secret, almost': fill('sup3r-s1gning-secre'),
};
const PLAIN = fill(
  'ok: [k3s-dev-1] => {"changed": false, "msg": "TASK [k3s_server : Install k3s] changed=1 unreachable=0 failed=0"} ',
);

/**
 * One 64 KiB line of ordinary output beside lines built to stall each pattern, through the line
 * redactor a step's output goes through, rounds interleaved; medians per line.
 */
export async function measureRedaction(): Promise<RedactionFigures> {
  const lines = { plain: PLAIN, ...ADVERSARIAL };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(lines).map((name) => [name, []]));
  const redact = createRedactor(['sup3r-s1gning-secret', 'k3s-dev-token-0001']);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, line] of Object.entries(lines)) {
      const redactLine = createLineRedactor(redact);
      const started = performance.now();
      redactLine(line);
      samples[name]!.push(performance.now() - started);
    }
  }
  // The first rounds warm the JIT up; they are dropped.
  const ms = (name: string) => median(samples[name]!.slice(3));
  const plainMs = ms('plain');
  const adversarialMs = Object.fromEntries(
    Object.keys(ADVERSARIAL).map((name) => [name, round(ms(name), 2)]),
  );
  const [worst, worstMs] = Object.entries(adversarialMs).sort(([, a], [, b]) => b - a)[0]!;
  return {
    redaction: {
      lineChars: MAX_CHECKED_LINE,
      plainMs: round(plainMs, 2),
      adversarialMs,
      adversarialRatio: round(worstMs / plainMs, 2),
      worst,
    },
  };
}
