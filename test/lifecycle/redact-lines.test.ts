import { describe, expect, it } from 'vitest';
import { createLineRedactor } from '../../src/lifecycle/redact-lines.js';
import { createRedactor } from '../../src/log/create-redactor.js';

const redactLines = (lines: readonly string[]) => lines.map(createLineRedactor(createRedactor()));

describe('redacting streamed output line by line', () => {
  it('masks every body line of a vault payload printed in YAML, in a diff or as list items', () => {
    const out = redactLines([
      '+become_password: !vault |',
      '+          $ANSIBLE_VAULT;1.1;AES256',
      `+          ${'6'.repeat(80)}`,
      '+          3132',
      '+node-name: k3s-dev-1',
      '        "$ANSIBLE_VAULT;1.1;AES256",',
      `        "${'7'.repeat(80)}",`,
      '    ]',
    ]);
    expect(out.join('\n')).not.toMatch(/6666|3132|7777/);
    expect(out).toContain('+node-name: k3s-dev-1');
    expect(out).toContain('    ]');
  });

  it("masks a secret's YAML block scalar: the lines under the key, indented deeper, and no further", () => {
    const out = redactLines([
      '+k3s_token: |',
      '+  blockscalarsecret0001',
      '+  blockscalarsecret0002',
      '+node-name: k3s-dev-1',
      '    ansible_become_password: >-',
      '      foldedsecret0003',
      '',
      '      foldedsecret0004',
      '    become_user: root',
    ]);
    expect(out.join('\n')).not.toMatch(/secret000/);
    expect(out).toContain('+node-name: k3s-dev-1');
    expect(out).toContain('    become_user: root');
  });

  it('masks a PGP key block to its END line, and an unterminated key to the end of the stream', () => {
    const out = redactLines([
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      'lQdGBGVwZ2ZmYWtlcGdwYm9keQ',
      '-----END PGP PRIVATE KEY BLOCK-----',
      'between keys',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----',
      'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI',
      'ok: [k3s-dev-1]',
    ]);
    expect(out).toEqual([
      '[REDACTED]',
      '[REDACTED]',
      '[REDACTED]',
      'between keys',
      '[REDACTED]',
      '[REDACTED]',
      '[REDACTED]',
    ]);
  });

  it('masks a one-line key exactly where it sits when a configured secret before it was masked first', () => {
    const redactLine = createLineRedactor(createRedactor(['configured-secret-value']));
    const out = redactLine(
      'args: configured-secret-value -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXk -----END OPENSSH PRIVATE KEY----- rc=0',
    );
    expect(out).toBe('args: [REDACTED] [REDACTED] rc=0');
    expect(redactLine('ok: [k3s-dev-1]')).toBe('ok: [k3s-dev-1]');
  });

  it('never throws: a line the redactor fails on is masked whole', () => {
    const redactLine = createLineRedactor(() => {
      throw new Error('boom');
    });
    expect(redactLine('password: hunter2')).toBe('[REDACTED: unredactable text]');
  });
});
