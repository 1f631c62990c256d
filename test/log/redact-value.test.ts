import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/log/create-redactor.js';
import { redactValue } from '../../src/log/redact-value.js';

const redact = createRedactor(['configured-secret']);

describe('redacting a value before it is serialised', () => {
  it('catches `token: "x"`, which serialised JSON hides as `token: \\"x\\"`', () => {
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: 'join with token: "k3s-join-secret"' } },
    ];
    const sent = JSON.stringify(redactValue(blocks, redact));
    expect(sent).not.toContain('k3s-join-secret');
    expect(JSON.parse(sent)).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'join with token: [REDACTED]' } },
    ]);
  });

  it('redacts keys, nested arrays and errors (as plain objects with their own fields)', () => {
    const error = Object.assign(new Error('failed with configured-secret'), { code: 'E_X' });
    const out = redactValue({ 'configured-secret': [1, true, null, { err: error }] }, redact);
    expect(out).toEqual({
      '[REDACTED]': [
        1,
        true,
        null,
        {
          err: expect.objectContaining({
            type: 'Error',
            message: 'failed with [REDACTED]',
            code: 'E_X',
            stack: expect.not.stringContaining('configured-secret'),
          }),
        },
      ],
    });
  });

  it('never throws: a cycle is marked and a value it cannot walk is masked whole', () => {
    const cyclic: Record<string, unknown> = { text: 'configured-secret' };
    cyclic.self = cyclic;
    expect(redactValue(cyclic, redact)).toEqual({ text: '[REDACTED]', self: '[Circular]' });
    const hostile = {
      get secret(): string {
        throw new Error('configured-secret');
      },
    };
    expect(redactValue(hostile, redact)).toBe('[REDACTED: unredactable value]');
  });
});
