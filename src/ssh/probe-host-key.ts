import { Client } from 'ssh2';
import { ClusterBotError } from '../errors.js';
import type { PresentedHostKey, SshTarget } from '../lifecycle/ports/remote-shell.js';
import { fingerprintOfKey } from './fingerprint-of-key.js';
import { toConnectError } from './to-connect-error.js';

/**
 * Connects only as far as the key exchange, records the host key and hangs up without authenticating:
 * the key is shown to a person, never trusted here.
 */
export function probeHostKey(
  target: Pick<SshTarget, 'host' | 'port'>,
  timeoutMs: number,
): Promise<PresentedHostKey> {
  const label = `${target.host}:${target.port}`;
  return new Promise((resolve, reject) => {
    const client = new Client();
    let presented: PresentedHostKey | undefined;
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.destroy();
      if (presented !== undefined) resolve(presented);
      else reject(error);
    };
    const timer = setTimeout(
      () =>
        settle(
          new ClusterBotError(
            'SSH_UNREACHABLE',
            `${label} did not present a host key within ${timeoutMs} ms`,
            {
              details: { host: target.host, port: target.port },
            },
          ),
        ),
      timeoutMs,
    );
    // Refusing the key ends the handshake with an error; by then the fingerprint is known.
    client.on('error', (error) => settle(toConnectError(error, { ...target, label, user: '' })));
    client.on('close', () =>
      settle(
        new ClusterBotError(
          'SSH_UNREACHABLE',
          `${label} closed the connection before presenting a host key`,
          {
            details: { host: target.host, port: target.port },
          },
        ),
      ),
    );
    // No key, no password, no agent: even a server that accepted anyone could not be logged into.
    client.connect({
      host: target.host,
      port: target.port,
      username: 'probe',
      readyTimeout: timeoutMs,
      hostVerifier: (rawKey: Buffer) => {
        presented = {
          fingerprint: fingerprintOfKey(rawKey),
          keyType: keyTypeOf(rawKey),
          publicKey: rawKey.toString('base64'),
        };
        settle();
        return false;
      },
    });
  });
}

/** The algorithm name an SSH public key blob starts with (a uint32 length, then the name). */
function keyTypeOf(rawKey: Buffer): string {
  const length = rawKey.length >= 4 ? rawKey.readUInt32BE(0) : 0;
  return rawKey.subarray(4, 4 + Math.min(length, 64)).toString('latin1');
}
