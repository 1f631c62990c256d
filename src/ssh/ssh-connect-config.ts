import type { ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import type { SshTarget } from '../lifecycle/ports/remote-shell.js';
import type { HostKeyPolicy } from './load-host-key-policy.js';

export interface ConnectTimings {
  readonly connectTimeoutMs: number;
  readonly keepaliveIntervalMs: number;
  readonly keepaliveCountMax: number;
}

/**
 * ssh2's connect options for a target: the pinned key types asked for first, and every offered host
 * key passed to `onHostKey`, whose verdict (undefined: accepted) decides the handshake.
 */
export function sshConnectConfig(
  target: SshTarget,
  timings: ConnectTimings,
  privateKey: Buffer | string,
  policy: HostKeyPolicy,
  onHostKey: (rawKey: Buffer, error: ReturnType<HostKeyPolicy['check']>) => void,
): ConnectConfig {
  const preferred = policy.preferredAlgorithms as ServerHostKeyAlgorithm[];
  return {
    host: target.host,
    port: target.port,
    username: target.user,
    privateKey,
    readyTimeout: timings.connectTimeoutMs,
    keepaliveInterval: timings.keepaliveIntervalMs,
    keepaliveCountMax: timings.keepaliveCountMax,
    hostVerifier: (rawKey: Buffer) => {
      const error = policy.check(rawKey);
      onHostKey(rawKey, error);
      return error === undefined;
    },
    ...(preferred.length > 0 && {
      algorithms: { serverHostKey: { remove: preferred, prepend: preferred, append: [] } },
    }),
  };
}
