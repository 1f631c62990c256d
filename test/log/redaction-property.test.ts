import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { redactingDeps } from '../../src/lifecycle/engine/redacting-deps.js';
import type { EngineDeps } from '../../src/lifecycle/engine/run-plan.js';
import { createLineRedactor } from '../../src/lifecycle/redact-lines.js';
import { createRedactor, type Redact } from '../../src/log/create-redactor.js';
import { redactValue } from '../../src/log/redact-value.js';
import { captureLogger } from '../support/capture-logger.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createRecordingReporter } from '../support/recording-reporter.js';

/** A generated secret: its text, the parts that must never come out, and the key it needs, if any. */
interface Secret {
  readonly kind: string;
  readonly text: string;
  readonly probes: readonly string[];
  /** Secrets that look like nothing in particular are only recognisable after their key. */
  readonly key?: string;
  /** A value the config's secret files (or the environment) hold: the redactor is told it. */
  readonly known?: boolean;
}

const chars = (alphabet: string, minLength: number, maxLength = minLength) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });
const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
// Every printable ASCII character but the space: quotes, backslashes, separators included.
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('');

const k3sToken = fc
  .record({
    hash: chars(HEX, 64),
    role: fc.constantFrom('server', 'node'),
    password: fc.oneof(chars(HEX, 32), chars(ALNUM, 12, 40)),
    withHash: fc.boolean(),
  })
  .map(
    ({ hash, role, password, withHash }): Secret => ({
      kind: 'k3s token',
      text: `${withHash ? `K10${hash}` : ''}::${role}:${password}`,
      probes: [password],
    }),
  );

const jwt = fc.tuple(chars(B64URL, 10, 40), chars(B64URL, 20, 120), chars(B64URL, 43, 86)).map(
  ([header, payload, signature]): Secret => ({
    kind: 'JWT',
    text: `eyJ${header}.eyJ${payload}.${signature}`,
    probes: [payload, signature],
  }),
);

const pemKinds = fc.constantFrom(
  'RSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
  'EC PRIVATE KEY',
  'PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'PGP PRIVATE KEY BLOCK',
);
const pemBody = fc.array(chars(B64, 64), { minLength: 1, maxLength: 5 });

const pemBlock = fc.record({ kind: pemKinds, body: pemBody, terminated: fc.boolean() }).map(
  ({ kind, body, terminated }): Secret => ({
    kind: terminated ? 'private key block' : 'unterminated private key block',
    text: [`-----BEGIN ${kind}-----`, ...body, ...(terminated ? [`-----END ${kind}-----`] : [])].join('\n'),
    probes: body,
  }),
);

const kubeconfigKey = fc
  .record({ body: pemBody, field: fc.constantFrom('client-key-data', 'data') })
  .map(({ body, field }): Secret => {
    const pem = ['-----BEGIN EC PRIVATE KEY-----', ...body, '-----END EC PRIVATE KEY-----', ''].join('\n');
    const base64 = Buffer.from(pem).toString('base64');
    return { kind: 'base64 of a PEM', text: base64, probes: [base64.slice(24)], key: field };
  });

const vault = fc.array(chars(HEX, 80), { minLength: 1, maxLength: 4 }).map(
  (lines): Secret => ({
    kind: 'ansible vault',
    text: ['$ANSIBLE_VAULT;1.1;AES256', ...lines].join('\n'),
    probes: lines,
  }),
);

const slackToken = fc
  .record({
    prefix: fc.constantFrom('xoxb', 'xoxp', 'xoxa', 'xoxr', 'xoxs', 'xoxe', 'xoxe.xoxp', 'xapp'),
    ids: chars('0123456789', 10, 13),
    tail: chars(ALNUM, 24, 32),
  })
  .map(
    ({ prefix, ids, tail }): Secret => ({
      kind: 'Slack token',
      text: `${prefix}-${ids}-${tail}`,
      probes: [tail],
    }),
  );

const slackWebhook = fc.tuple(chars(UPPER_ALNUM, 10), chars(UPPER_ALNUM, 10), chars(ALNUM, 24)).map(
  ([team, bot, tail]): Secret => ({
    kind: 'Slack webhook',
    text: `https://hooks.slack.com/services/T${team}/B${bot}/${tail}`,
    probes: [tail],
  }),
);

const awsKeyId = fc
  .tuple(fc.constantFrom('AKIA', 'ASIA'), chars(UPPER_ALNUM, 16))
  .map(([prefix, id]): Secret => ({ kind: 'AWS key id', text: `${prefix}${id}`, probes: [id] }));

const awsSecretKey = fc
  .tuple(fc.constantFrom('aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'SecretAccessKey'), chars(B64, 40))
  .map(([key, value]): Secret => ({ kind: 'AWS secret key', text: value, probes: [value], key }));

const githubToken = fc
  .oneof(
    chars(ALNUM, 36).map((tail) => ({ text: `ghp_${tail}`, tail })),
    fc
      .tuple(chars(ALNUM, 22), chars(ALNUM, 59))
      .map(([a, b]) => ({ text: `github_pat_${a}_${b}`, tail: `${a}_${b}` })),
  )
  .map(({ text, tail }): Secret => ({ kind: 'GitHub token', text, probes: [tail] }));

const urlUserinfo = fc
  .record({
    scheme: fc.constantFrom('https', 'redis', 'rediss', 'postgres', 'amqp'),
    user: chars(ALNUM, 1, 12),
    password: chars(`${ALNUM}!$&()*+,;=~._-`, 8, 24),
  })
  .map(
    ({ scheme, user, password }): Secret => ({
      kind: 'URL userinfo',
      text: `${scheme}://${user}:${password}@127.0.0.1:6379/0`,
      probes: [password],
    }),
  );

// A value only its key gives away: passwords, tokens, keys, as anyone may choose them.
const keyedValue = fc
  .tuple(
    fc.constantFrom(
      'password',
      'ansible_become_password',
      'k3s_token',
      'token',
      'api_key',
      'client_secret',
      'passphrase',
      'vault_password',
    ),
    chars(PRINTABLE, 8, 32),
  )
  .map(([key, value]): Secret => ({ kind: `value of ${key}`, text: value, probes: [value], key }));

// What the config's secret files and the environment hold: the redactor knows them by value.
const knownValue = chars(PRINTABLE, 8, 40).map(
  (value): Secret => ({ kind: 'known secret', text: value, probes: [value], known: true }),
);

const bearer = chars(B64URL, 20, 60).map(
  (value): Secret => ({ kind: 'bearer token', text: `Bearer ${value}`, probes: [value] }),
);

// Item 6 of issue 22: shapes the redactor used to miss.
const envVar = fc
  .tuple(fc.constantFrom('POSTGRES_PASSWORD', 'REDIS_TOKEN', 'API_SECRET'), chars(ALNUM, 12, 32))
  .map(
    ([name, value]): Secret => ({
      kind: 'Kubernetes env var',
      text: `- name: ${name}\n  value: ${value}`,
      probes: [value],
    }),
  );
const spacedValue = fc
  .tuple(fc.constantFrom('requirepass', 'machine git.lab login ops password'), chars(ALNUM, 12, 32))
  .map(
    ([prefix, value]): Secret => ({
      kind: `${prefix.split(' ')[0]} x`,
      text: `${prefix} ${value}`,
      probes: [value],
    }),
  );
const extraVar = chars(ALNUM, 12, 32).map(
  (value): Secret => ({
    kind: '-e vault_pw=',
    text: `ansible-playbook site.yml -e vault_pw=${value}`,
    probes: [value],
  }),
);
const base64Kubeconfig = fc.tuple(chars(B64, 40, 80)).map(([token]): Secret => {
  const base64 = Buffer.from(
    `apiVersion: v1\nclusters:\n- cluster:\n    server: https://127.0.0.1:6443\nusers:\n- user:\n    token: ${token}\n`,
  ).toString('base64');
  return { kind: 'base64 kubeconfig', text: base64, probes: [base64.slice(40)] };
});
const dockerConfig = chars(B64, 20, 40).map((auth): Secret => {
  const json = JSON.stringify({ auths: { 'ghcr.io': { auth } } });
  return {
    kind: 'docker config',
    text: Buffer.from(json).toString('base64'),
    probes: [Buffer.from(json).toString('base64').slice(24)],
    key: '.dockerconfigjson',
  };
});
const dockerAuth = chars(B64, 20, 40).map(
  (auth): Secret => ({ kind: '"auth":', text: `{"auths":{"ghcr.io":{"auth":"${auth}"}}}`, probes: [auth] }),
);
const wireguard = fc
  .tuple(fc.constantFrom('PrivateKey', 'PresharedKey'), chars(B64, 43))
  .map(([key, value]): Secret => ({ kind: `WireGuard ${key}`, text: `${key} = ${value}=`, probes: [value] }));
const signedUrl = fc.tuple(fc.constantFrom('sig', 'X-Amz-Signature'), chars(`${ALNUM}%`, 24, 64)).map(
  ([key, value]): Secret => ({
    kind: `${key}= in a URL`,
    text: `https://store.lab/k3s.tar?se=2026-12-02&${key}=${value}&sp=r`,
    probes: [value],
  }),
);
const rfc4716 = pemBody.map(
  (body): Secret => ({
    kind: 'RFC 4716 private key',
    text: [
      '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----',
      'Comment: "ops"',
      ...body,
      '---- END SSH2 ENCRYPTED PRIVATE KEY ----',
    ].join('\n'),
    probes: body,
  }),
);
const putty = fc.tuple(pemBody, chars(HEX, 64)).map(
  ([body, mac]): Secret => ({
    kind: 'PuTTY private key',
    text: [
      'PuTTY-User-Key-File-3: ssh-ed25519',
      'Encryption: none',
      'Comment: ops',
      `Private-Lines: ${body.length}`,
      ...body,
      `Private-MAC: ${mac}`,
    ].join('\n'),
    probes: body,
  }),
);
const googleKey = chars(B64URL, 35).map(
  (tail): Secret => ({ kind: 'AIza key', text: `AIza${tail}`, probes: [tail] }),
);
// A short configured secret: a letter, a digit and a symbol at least, so it is no ordinary word.
const shortKnown = fc
  .tuple(chars('abcdefghijkmnpqrstuvwxyz', 1), chars('23456789', 1), chars('!#$%&*;?@^~', 1, 3))
  .map(
    ([a, b, c]): Secret => ({
      kind: 'short known secret',
      text: `${a}${b}${c}`,
      probes: [`${a}${b}${c}`],
      known: true,
    }),
  );
const splitBegin = fc.tuple(pemBody, fc.integer({ min: 1, max: 18 })).map(([body, at]): Secret => {
  const label = 'OPENSSH PRIVATE KEY';
  return {
    kind: 'OpenSSH key, BEGIN line split',
    text: [
      `-----BEGIN ${label.slice(0, at)}`,
      `${label.slice(at)}-----`,
      ...body,
      `-----END ${label}-----`,
    ].join('\n'),
    probes: body,
  };
});

const secret = fc.oneof(
  k3sToken,
  jwt,
  pemBlock,
  kubeconfigKey,
  vault,
  slackToken,
  slackWebhook,
  awsKeyId,
  awsSecretKey,
  githubToken,
  urlUserinfo,
  keyedValue,
  knownValue,
  bearer,
  envVar,
  spacedValue,
  extraVar,
  base64Kubeconfig,
  dockerConfig,
  dockerAuth,
  wireguard,
  signedUrl,
  rfc4716,
  putty,
  googleKey,
  shortKnown,
  splitBegin,
);

const shellQuote = (value: string) =>
  /^[A-Za-z0-9_./:=@+-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
const option = (key: string) =>
  `--${key
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replaceAll('_', '-')
    .toLowerCase()}`;
const line = (s: Secret) => (s.key ? `${s.key}: ${s.text}` : s.text);

/** How a secret is printed: the places playbooks, tools and diffs put it. */
const CONTEXTS: Readonly<Record<string, (s: Secret) => string>> = {
  json: (s) => JSON.stringify({ changed: false, [s.key ?? 'msg']: s.text }),
  'pretty json': (s) => JSON.stringify({ changed: false, [s.key ?? 'stdout']: s.text }, null, 4),
  yaml: (s) =>
    s.text.includes('\n')
      ? `${s.key ?? 'data'}: |\n${s.text
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}\nnext: ok`
      : `${s.key ?? 'msg'}: ${s.text}\nnext: ok`,
  argv: (s) =>
    s.key
      ? `k3s agent --server https://127.0.0.1:6443 ${option(s.key)} ${shellQuote(s.text)} --node-name k3s-dev-2`
      : `k3s agent --token ${shellQuote(s.text)} --server https://127.0.0.1:6443`,
  'argv with =': (s) => `helm upgrade cilium ${option(s.key ?? 'token')}=${shellQuote(s.text)} --wait`,
  env: (s) => `${(s.key ?? 'K3S_TOKEN').toUpperCase()}=${shellQuote(s.text)} k3s-install.sh`,
  'ansible msg': (s) => `ok: [k3s-dev-1] => {"changed": false, "msg": ${JSON.stringify(line(s))}}`,
  'ansible failure': (s) =>
    `fatal: [k3s-dev-2]: FAILED! => {"changed": false, "msg": ${JSON.stringify(`join failed: ${line(s)}`)}}`,
  'ansible msg list': (s) =>
    [
      'ok: [k3s-dev-1] => {',
      '    "msg": [',
      ...line(s)
        .split('\n')
        .map((l, i, all) => `        ${JSON.stringify(l)}${i < all.length - 1 ? ',' : ''}`),
      '    ]',
      '}',
    ].join('\n'),
  'diff lines': (s) =>
    [
      '--- before: /etc/rancher/k3s/config.yaml',
      '+++ after: /etc/rancher/k3s/config.yaml',
      '@@ -1,2 +1,2 @@',
      ' write-kubeconfig-mode: "0600"',
      ...line(s)
        .split('\n')
        .map((l) => `+${l}`),
      '-node-name: old',
    ].join('\n'),
  prose: (s) => `the task printed ${s.key ? `${s.key}=${shellQuote(s.text)}` : s.text} and went on`,
};

/** Everything a path let out, as the strings a reader would see (JSON decoded back to text). */
type OutputPath = (embedded: string, redact: Redact) => Promise<string[]>;

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
}

const streamed = (embedded: string, redact: Redact) =>
  embedded.split('\n').map(createLineRedactor(redact)).join('\n');

const PATHS: Readonly<Record<string, OutputPath>> = {
  // Slack blocks, job records, approvals, the audit stream: values serialised after redaction.
  'serialised value': async (embedded, redact) => {
    const payload = {
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: embedded } }],
      [embedded]: 1,
    };
    return stringsIn(JSON.parse(JSON.stringify(redactValue(payload, redact))));
  },
  'message text': async (embedded, redact) => [redact(embedded)],
  'process log': async (embedded, redact) => {
    const { logger, lines } = captureLogger(redact);
    // The stack holds the message too (and, left alone, this file's name and fast-check's frames).
    const error = () =>
      Object.assign(new Error(embedded), { stack: `Error: ${embedded}\n    at step (run)` });
    logger.child({ step: embedded }).warn({ detail: embedded, err: error() }, embedded);
    logger.error(error());
    return lines.flatMap((l) => stringsIn(JSON.parse(l)));
  },
  // A step's output, line by line; the uploaded log is those lines once more through the redactor.
  'streamed output and uploaded log': async (embedded, redact) => {
    const lines = streamed(embedded, redact);
    return [lines, redact(lines)];
  },
  // What the engine reports, stores and asks about (the approval request with its preview).
  'engine ports': async (embedded, redact) => {
    const reporter = createRecordingReporter();
    const approvals = createMemoryApprovalDesk();
    const checkpoints = createMemoryCheckpointStore();
    const deps = redactingDeps({
      reporter,
      approvals: approvals.desk,
      checkpoints,
      redact,
    } as unknown as EngineDeps);
    await deps.reporter.emit({ type: 'note', stepId: '2-cilium', text: embedded });
    for (const l of embedded.split('\n')) await deps.reporter.output('2-cilium', l);
    await deps.approvals.request({
      stepId: '2-cilium',
      stepTitle: 'cilium.yml',
      cluster: 'prod',
      reason: 'a Cilium rollout',
      binding: {
        commandLine: 'ansible-playbook playbooks/cilium.yml',
        targets: 'prod',
        commit: 'a'.repeat(40),
        fingerprint: 'f'.repeat(64),
        preview: {
          ran: false,
          failure: embedded,
          changedTasks: { [embedded]: [embedded] },
          diffExcerpt: embedded,
        },
      },
    });
    await deps.checkpoints.set('2-cilium', {
      status: 'failed',
      summary: embedded,
      data: { facts: embedded },
    });
    return [
      ...stringsIn(reporter.events),
      reporter.lines.join('\n'),
      ...stringsIn(approvals.requests),
      ...stringsIn(await checkpoints.get('2-cilium')),
    ];
  },
};

const TEMPLATES = Object.values(CONTEXTS)
  .map((context) => context({ kind: '', text: '', probes: [] }))
  .join('\n');

/** Every 8-character window of a probe, as written and as it reads inside JSON text. */
function fragments(probe: string): string[] {
  const forms = [probe, JSON.stringify(probe).slice(1, -1)];
  return forms.flatMap((form) =>
    form.length <= 8 ? [form] : Array.from({ length: form.length - 7 }, (_, i) => form.slice(i, i + 8)),
  );
}

describe('redaction as a property', () => {
  it('no generated secret, printed in any way, survives any output path, and the JSON stays valid', async () => {
    await fc.assert(
      fc.asyncProperty(secret, fc.constantFrom(...Object.keys(CONTEXTS)), async (s, contextName) => {
        const pieces = s.probes.flatMap(fragments);
        // A fragment that the surrounding text holds anyway says nothing about a leak.
        fc.pre(!pieces.some((piece) => TEMPLATES.includes(piece)));
        const embedded = CONTEXTS[contextName]!(s);
        const redact = createRedactor(s.known ? [s.text] : []);
        for (const [pathName, path] of Object.entries(PATHS)) {
          const seen = (await path(embedded, redact)).join('\n');
          const leaked = pieces.find((piece) => seen.includes(piece));
          expect(
            leaked,
            `${s.kind} printed as ${contextName} leaked through ${pathName}:\n${embedded}\n---\n${seen}`,
          ).toBeUndefined();
        }
      }),
      { numRuns: 2000 },
    );
  });
});
