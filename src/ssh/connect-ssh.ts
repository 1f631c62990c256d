import { Client } from 'ssh2';
import { ClusterBotError } from '../errors.js';
import type { SshTarget } from '../lifecycle/ports/remote-shell.js';
import { loadHostKeyPolicy } from './load-host-key-policy.js';
import type { ReadFile } from './read-file.js';
import { type ConnectTimings, sshConnectConfig } from './ssh-connect-config.js';
import type { SshLogger } from './ssh-logger.js';
import { toConnectError } from './to-connect-error.js';

export interface ConnectSettings extends ConnectTimings {
  readonly readFile: ReadFile;
  readonly logger: SshLogger;
}

/** An authenticated ssh2 client and the host key it was checked with (against the target's pin). */
export interface PinnedClient {
  readonly client: Client;
  readonly hostKey: Buffer;
}

/** Connects and authenticates, taking only the host key the target's pin names. */
export async function connectSsh(
  target: SshTarget,
  settings: ConnectSettings,
  signal?: AbortSignal,
): Promise<PinnedClient> {
  const where = `${target.label} (${target.host}:${target.port})`;
  const details = { label: target.label, host: target.host, port: target.port };
  const privateKey = await readPrivateKey(target, settings.readFile, where);
  const policy = await loadHostKeyPolicy(target, settings.readFile);

  return new Promise((resolve, reject) => {
    const client = new Client();
    let settled = false;
    let hostKeyError: ClusterBotError | undefined;
    let hostKey: Buffer | undefined;

    const fail = (error: ClusterBotError): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      client.destroy();
      reject(error);
    };
    const onAbort = (): void =>
      fail(
        new ClusterBotError('CANCELLED', `Cancelled while connecting to ${where}`, {
          cause: signal?.reason,
          details,
        }),
      );

    // Stays attached for the client's whole life: an 'error' event without a listener would crash the process.
    client.on('error', (error) => {
      if (settled) {
        settings.logger.debug({ ...details, err: error }, 'ssh connection error after connect');
        return;
      }
      fail(hostKeyError ?? toConnectError(error, target));
    });
    client.once('close', () =>
      fail(
        hostKeyError ??
          new ClusterBotError('SSH_UNREACHABLE', `${where} closed the connection during the handshake`, {
            details,
          }),
      ),
    );
    client.once('ready', () => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve({ client, hostKey: hostKey ?? Buffer.alloc(0) });
    });
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    try {
      const config = sshConnectConfig(target, settings, privateKey, policy, (rawKey, error) => {
        hostKey = rawKey;
        hostKeyError = error;
      });
      client.connect(config);
    } catch (error) {
      // ssh2 throws synchronously on a key it cannot parse (or one that needs a passphrase).
      fail(
        new ClusterBotError(
          'SSH_AUTH_FAILED',
          `Cannot use the private key ${target.privateKeyPath} for ${where}`,
          {
            cause: error,
            details: { ...details, privateKeyPath: target.privateKeyPath },
          },
        ),
      );
    }
  });
}

/** The key is read before dialling: a missing or unreadable key is a setup fault, not the host's. */
async function readPrivateKey(
  target: SshTarget,
  readFile: ReadFile,
  where: string,
): Promise<Buffer | string> {
  return readFile(target.privateKeyPath).catch((error: unknown) => {
    throw new ClusterBotError('SSH_AUTH_FAILED', `Cannot read the private key for ${where}`, {
      cause: error,
      details: {
        label: target.label,
        host: target.host,
        port: target.port,
        privateKeyPath: target.privateKeyPath,
      },
    });
  });
}
