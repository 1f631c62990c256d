import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';

describe('the process logger', () => {
  it('redacts fields, messages, errors and child bindings before the line is serialised, and the line stays JSON', () => {
    const { logger, lines } = captureLogger(createRedactor(['bot-signing-secret']));
    logger
      .child({ command: 'deploy --token k3s-child-secret' })
      .warn(
        { output: 'token: "k3s-field-secret"', err: new Error('password=abc"dsecret') },
        'signing with bot-signing-secret',
      );
    logger.error(new Error('-----BEGIN RSA PRIVATE KEY-----\nMIIEunterminatedbody'));
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({
      command: 'deploy --token [REDACTED]',
      output: 'token: [REDACTED]',
      err: { type: 'Error', message: 'password=[REDACTED]' },
      msg: 'signing with [REDACTED]',
    });
    expect(second).toMatchObject({ err: { type: 'Error' }, msg: '[REDACTED]\n[REDACTED]' });
    expect(lines.join('')).not.toMatch(
      /k3s-child-secret|k3s-field-secret|dsecret|bot-signing|unterminatedbody/,
    );
  });
});
