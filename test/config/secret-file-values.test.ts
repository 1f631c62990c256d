import { describe, expect, it } from 'vitest';
import { secretFileValues } from '../../src/config/secret-file-values.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { loadExampleWorld } from '../support/example-world.js';

const KEY_BODY = [
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACBsYWJmYWtla2V5',
];
const DECODED_KEY_BODY = 'MHcCAQEEIFakeEcKeyBodyLineForTheLabOnly0123456789abcdefAoGCCqGSM49';
const CLIENT_KEY = Buffer.from(
  `-----BEGIN EC PRIVATE KEY-----\n${DECODED_KEY_BODY}\n-----END EC PRIVATE KEY-----\n`,
).toString('base64');
const kubeconfig = `apiVersion: v1
clusters:
- cluster: {certificate-authority-data: Q0EgZGF0YQ==, server: 'https://127.0.0.1:6443'}
  name: dev
users:
- name: admin
  user:
    client-certificate-data: Q0VSVCBkYXRh
    client-key-data: ${CLIENT_KEY}
- name: robot
  user:
    token: robot-static-token-0123456789
`;

describe('secrets read from the files the config names', () => {
  it('are an SSH key’s body lines and a kubeconfig user’s credentials, so a printed one is hidden', async () => {
    const world: WorldConfig = await loadExampleWorld();
    const files: Record<string, string> = {
      [world.ops.privateKeyPath]:
        `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
      [world.clusters.dev!.kubeconfigPath]: kubeconfig,
    };
    const values = await secretFileValues(world, async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    });
    expect(values).toEqual(
      expect.arrayContaining([...KEY_BODY, CLIENT_KEY, DECODED_KEY_BODY, 'robot-static-token-0123456789']),
    );
    expect(values.join('\n')).not.toMatch(/Q0VSVCBkYXRh|Q0EgZGF0YQ/);
    const redact = createRedactor(values);
    // Printed without the key's BEGIN line, or the token without its key: still hidden.
    expect(redact(`cat key | tail -2: ${KEY_BODY[1]}`)).toBe('cat key | tail -2: [REDACTED]');
    expect(redact(`curl -H "X-Auth robot-static-token-0123456789"`)).toBe('curl -H "X-Auth [REDACTED]"');
    expect(redact(`decoded: ${DECODED_KEY_BODY}`)).toBe('decoded: [REDACTED]');
  });
});
