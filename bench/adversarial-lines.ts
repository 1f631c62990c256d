/** A line of `chars` characters: `unit` repeated, cut to size. */
export const fill = (unit: string, chars: number): string =>
  unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

/** Ordinary playbook output, the figure every adversarial line is compared with. */
export const plainLine = (chars: number): string =>
  fill(
    'ok: [k3s-dev-1] => {"changed": false, "msg": "TASK [k3s_server : Install k3s] changed=1 unreachable=0 failed=0"} ',
    chars,
  );

/** The secrets the redactor is configured with when these lines are redacted. */
export const KNOWN_SECRETS = ['sup3r-s1gning-secret', 'k3s-dev-token-0001'] as const;

/**
 * Each redaction pattern's worst case, as a line of any length: what makes it try again at every
 * position, scan to the end each time, or decide a match in code at every few characters.
 */
export const ADVERSARIAL_LINES: Readonly<Record<string, (chars: number) => string>> = {
  '--tokenx': (n) => fill('--tokenx', n),
  '--token ': (n) => fill('--token ', n),
  tokentoken: (n) => fill('token', n),
  'password="\\': (n) => fill('password="\\', n),
  "api_key='": (n) => fill("api_key='", n),
  'name: X_PASSWORD': (n) => fill('name: X_PASSWORD "value', n),
  '-----BEGIN ': (n) => fill('-----BEGIN ', n),
  'BEGIN PRIVATE KEY, no END': (n) => fill('-----BEGIN PRIVATE KEY PRIVATE KEY-----', n),
  'PuTTY-User-Key-File-': (n) => fill('PuTTY-User-Key-File-', n),
  'a://b:c@': (n) => fill('a://b:c@', n),
  '.eyJa': (n) => fill('.eyJa', n),
  'K10::server:': (n) => fill('K10::server:', n),
  '$ANSIBLE_VAULT; hex': (n) => `$ANSIBLE_VAULT;1.1;AES256${fill('\\n61 ', n)}`.slice(0, n),
  'xoxb-': (n) => fill('xoxb-', n),
  'Bearer ': (n) => fill('Bearer ', n),
  'Bearer, short credential': (n) => fill('Bearer abcdefg ', n),
  'login x password': (n) => fill('login x password ', n),
  'a known secret, almost': (n) => fill('sup3r-s1gning-secre', n),
  'quotes that never close': (n) => `api_key=x"${fill('a\'\\"', n - 10)}`,
  'password: |, a long key': (n) => `${fill('tokentoken', n - 4)}: |-`,
};
