import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';

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

  it('leaves ordinary progress text alone', () => {
    const line = 'TASK [k3s_server : Install k3s] ok: [k3s-dev-1] changed=1';
    expect(redact(line)).toBe(line);
  });

  it('applies to every log line the logger writes', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'info', redact, destination: sink });
    logger.info({ err: new Error('boom sup3r-s1gning-secret') }, 'token=xoxb-9999-8888-abcdefgh');
    expect(lines.join('')).not.toMatch(/sup3r|xoxb-9999/);
    expect(lines.join('')).toContain('[REDACTED]');
  });
});
