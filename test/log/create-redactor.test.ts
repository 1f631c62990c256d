import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';

describe('redaction', () => {
  const redact = createRedactor(['sup3r-s1gning-secret']);

  it('hides configured secrets and the usual token shapes', () => {
    const text = [
      'signing sup3r-s1gning-secret here',
      'token xoxb-1234-5678-abcdefgh printed',
      'ansible_become_password: hunter2hunter2',
      '"api_key": "abcd1234"',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig',
    ].join('\n');
    const out = redact(text);
    for (const secret of [
      'sup3r-s1gning-secret',
      'xoxb-1234',
      'hunter2',
      'abcd1234',
      'b3BlbnNzaC1rZXkt',
      'eyJhbGci',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('ansible_become_password: [REDACTED]');
    expect(out).toContain('Bearer [REDACTED]');
  });

  it('hides every format the review found missing, keeping what names it', () => {
    const pem = (kind: string, end = true) =>
      [`-----BEGIN ${kind}-----`, 'U0VDUkVUQk9EWUxJTkVPTkU=', ...(end ? [`-----END ${kind}-----`] : [])].join(
        '\n',
      );
    const cases: readonly [string, string, string?][] = [
      [`K10${'ab12'.repeat(16)}::server:k3ssecretpass01`, 'k3ssecretpass01'],
      ['join with K10abcdef::node:k3snodepass0001 now', 'k3snodepass0001', 'join with [REDACTED] now'],
      [
        'k3s agent --token k3sbaretoken0001 --server https://127.0.0.1:6443',
        'k3sbaretoken0001',
        'k3s agent --token [REDACTED] --server https://127.0.0.1:6443',
      ],
      ['eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlc2Vydg', 'eyJzdWIiOiJzeXN0ZW06c2EifQ'],
      [
        '    client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t',
        'LS0tLS1CRUdJTiBFQyBQUklW',
        '    client-key-data: [REDACTED]',
      ],
      ['data LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVF', 'QyBQUklWQVRFIEtFWS0tLS0tCk1I'],
      ['    token: abcdef.0123456789abcdef', '0123456789abcdef', '    token: [REDACTED]'],
      [pem('RSA PRIVATE KEY'), 'U0VDUkVUQk9EWUxJTkVPTkU'],
      [pem('PGP PRIVATE KEY BLOCK'), 'U0VDUkVUQk9EWUxJTkVPTkU'],
      [pem('OPENSSH PRIVATE KEY', false), 'U0VDUkVUQk9EWUxJTkVPTkU'],
      [
        'pw: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  61626364656667686970\n  3132\nnext: ok',
        '61626364656667686970',
        'pw: [REDACTED]\n[REDACTED]\n[REDACTED]\n[REDACTED]\nnext: ok',
      ],
      ['ansible_ssh_pass=sshpass0001 vault_pass: vaultpass0001', 'pass0001'],
      [
        'vars:\n  k3s_token: |\n    blockscalar0001\n    blockscalar0002\n  other: kept',
        'blockscalar000',
        'vars:\n  k3s_token: [REDACTED]\n[REDACTED]\n[REDACTED]\n  other: kept',
      ],
      ['Authorization: Basic dXNlcjpzZWNyZXRwYXNz', 'dXNlcjpzZWNyZXRwYXNz'],
      ['redis://:p@ssw0rd@redis.internal:6379/0', 'ssw0rd', 'redis://:[REDACTED]@redis.internal:6379/0'],
      ['xoxp-1234-5678-abcdefghijkl', 'abcdefghijkl'],
      ['xoxe.xoxp-1-refreshtoken0001', 'refreshtoken0001'],
      ['xoxe-1-rotationtoken0001', 'rotationtoken0001'],
      ['xapp-1-A0LAB-0000-apptoken0001', 'apptoken0001'],
      ['https://hooks.slack.com/services/T000/B000/webhooksecret01', 'webhooksecret01'],
      ['AKIAIOSFODNN7EXAMPLE and ASIAIOSFODNN7EXAMPLF', 'IOSFODNN7EXAMPL'],
      [
        'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        'wJalrXUtnFEMI',
        'aws_secret_access_key = [REDACTED]',
      ],
      [`ghp_${'a1'.repeat(18)} github_pat_11ABCDEFG0123456789_abcdefghijklmnop`, 'a1a1a1a1'],
      ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'abcdefghijklmnop'],
      ['SOPS_AGE_KEY=AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZ', 'QYQSZQGPQYQSZQGP'],
      ["mysql --password 'hunter2 hunter2' -h db", 'hunter2', 'mysql --password [REDACTED] -h db'],
      ['vault --token=s.vaulttoken01 read', 'vaulttoken01', 'vault --token=[REDACTED] read'],
      ['redis://bot:r3dispass@127.0.0.1:6379/0', 'r3dispass', 'redis://bot:[REDACTED]@127.0.0.1:6379/0'],
      ['password: correct horse battery staple', 'horse battery', 'password: [REDACTED]'],
      ['password=abc"d', '"d', 'password=[REDACTED]'],
      ['{"msg": "login token: \\"x-escaped-secret\\""}', 'x-escaped-secret'],
    ];
    for (const [text, secret, expected] of cases) {
      const out = redact(text);
      expect(out, text).not.toContain(secret);
      expect(out, text).toContain('[REDACTED]');
      if (expected !== undefined) expect(out, text).toBe(expected);
    }
  });

  it('leaves ids, hashes, public keys and paths alone', () => {
    for (const line of [
      `infra repo at ${'0123456789abcdef'.repeat(2)}01234567`,
      'host key SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl k3s-dev-1',
      'k3s agent --token-file /var/lib/rancher/k3s/server/node-token --server https://127.0.0.1:6443',
      'ansible-playbook playbooks/k3s.yml --vault-password-file /home/ops/.vault-pass',
      '[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ansible-playbook playbooks/cilium.yml --check --diff',
      'Secret/cilium-ca configured',
    ]) {
      expect(redact(line)).toBe(line);
    }
  });

  it('hides a configured secret also as it reads inside JSON text', () => {
    const quoted = createRedactor(['sig"ning\\secret']);
    const json = JSON.stringify({ msg: 'the secret is sig"ning\\secret' });
    expect(quoted(json)).not.toMatch(/sig.*ning/);
  });

  it('never throws: what it cannot redact (here not even a string, from a careless caller) comes out masked', () => {
    expect(redact(undefined as unknown as string)).toBe('[REDACTED: unredactable text]');
    expect(redact({ token: 'x' } as unknown as string)).toBe('[REDACTED: unredactable text]');
  });

  it('passes ordinary playbook output through unchanged, option names that mention a secret included', () => {
    const output = [
      'PLAY [k3s servers] *************************************************************',
      'TASK [k3s_server : Write config] ***********************************************',
      'changed: [k3s-dev-1] => {"changed": true, "dest": "/etc/rancher/k3s/config.yaml"}',
      'ok: [k3s-dev-2] => (item={"name": "token_file", "password_file": "/etc/rancher/k3s/token"})',
      '    password_file: /etc/ansible/vault-pass',
      '    token_path: /var/lib/rancher/k3s/server/node-token',
      'TASK [Set password for the ops user] *******************************************',
      'k3s-dev-1                  : ok=12   changed=1    unreachable=0    failed=0    skipped=3    rescued=0    ignored=0',
      '-----BEGIN CERTIFICATE-----',
      'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 ops@ops-host',
      'https://get.k3s.io/?channel=stable&sig_version=2',
    ].join('\n');
    expect(redact(output)).toBe(output);
  });

  it('masks a line past its 32nd secret-shaped match unread, saying how much, and shows none of its values', () => {
    const pairs = Array.from({ length: 40 }, (_, i) => `--token value${i}`);
    const line = `${pairs.join(' ')} closing words`;
    const rest = `${pairs.slice(32).join(' ')} closing words`;
    expect(redact(line)).toBe(
      `${'--token [REDACTED] '.repeat(32)}[REDACTED: ${rest.length} more characters not checked]`,
    );
  });

  it('masks a Bearer or Basic credential of 8 characters or more, keeping the scheme; each scheme word counts against the limit', () => {
    expect(redact('Authorization: Basic   dXNlcjpwYXNz, then Bearer abc.def_ghi~jk')).toBe(
      'Authorization: Basic   [REDACTED], then Bearer [REDACTED]',
    );
    expect(redact('Bearer short, basic Bearer abcdefghij, xBearer abcdefghij')).toBe(
      'Bearer short, basic Bearer [REDACTED], xBearer abcdefghij',
    );
    expect(redact('Bearer '.repeat(40))).toBe(
      `${'Bearer '.repeat(32)}[REDACTED: ${'Bearer '.length * 8} more characters not checked]`,
    );
  });

  it('masks a quoted value whole, its escaped quotes and blanks included', () => {
    expect(redact(`api_key="a b\\" c" d --password 'x y'z next`)).toBe(
      'api_key=[REDACTED] d --password [REDACTED] next',
    );
  });

  it('redacts a line with a few secrets exactly, without the match limit marker', () => {
    const line =
      'cmd: helm upgrade --token abc123 --set password=hunter2 https://ops:pa55@repo.example/charts xoxb-1234-5678-abcdefgh done';
    expect(redact(line)).toBe(
      'cmd: helm upgrade --token [REDACTED] --set password=[REDACTED] https://ops:[REDACTED]@repo.example/charts [REDACTED] done',
    );
  });

  it('leaves ordinary progress text alone', () => {
    const line = 'TASK [k3s_server : Install k3s] ok: [k3s-dev-1] changed=1';
    expect(redact(line)).toBe(line);
  });

  it('applies to every log line the logger writes', async () => {
    const { logger, lines } = captureLogger(redact);
    logger.info({ err: new Error('boom sup3r-s1gning-secret') }, 'token=xoxb-9999-8888-abcdefgh');
    expect(lines.join('')).not.toMatch(/sup3r|xoxb-9999/);
    expect(lines.join('')).toContain('[REDACTED]');
  });
});
