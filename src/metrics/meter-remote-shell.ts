import { isClusterBotError } from '../errors.js';
import type { RemoteShell } from '../lifecycle/ports/remote-shell.js';
import type { Metrics } from './create-metrics.js';

const CONNECTION_FAILURES = new Set([
  'SSH_UNREACHABLE',
  'SSH_AUTH_FAILED',
  'SSH_HOST_KEY_MISMATCH',
  'SSH_HOST_KEY_UNKNOWN',
  'SSH_CONNECTION_LOST',
]);

/** Counts SSH connection failures by code; everything else passes through untouched. */
export function meterRemoteShell(shell: RemoteShell, metrics: Metrics): RemoteShell {
  const count = (error: unknown): never => {
    if (isClusterBotError(error) && CONNECTION_FAILURES.has(error.code))
      metrics.sshFailures.inc({ code: error.code });
    throw error;
  };
  return {
    exec: (target, request) => shell.exec(target, request).catch(count),
    runDetached: (target, request) => shell.runDetached(target, request).catch(count),
    probeDetached: (...probe) => shell.probeDetached(...probe).catch(count),
    pruneDetached: (target, request) => shell.pruneDetached(target, request).catch(count),
    probeHostKey: (target, timeoutMs) => shell.probeHostKey(target, timeoutMs).catch(count),
  };
}
