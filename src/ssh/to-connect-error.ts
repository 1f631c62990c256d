import { ClusterBotError } from '../errors.js';
import type { SshTarget } from '../lifecycle/ports/remote-shell.js';

/** Explains an ssh2 error raised before the session was ready (ssh2 tags errors with a `level`). */
export function toConnectError(
  error: unknown,
  target: Pick<SshTarget, 'label' | 'host' | 'port' | 'user'>,
): ClusterBotError {
  const where = `${target.label} (${target.host}:${target.port})`;
  const { level, code, message } = error as { level?: string; code?: unknown; message?: string };
  const details = { label: target.label, host: target.host, port: target.port, level, code };
  if (level === 'client-authentication') {
    return new ClusterBotError('SSH_AUTH_FAILED', `${where} refused the key of ${target.user}`, {
      cause: error,
      details: { ...details, user: target.user },
    });
  }
  // client-socket (refused, no route), client-dns, client-timeout, and handshakes cut short.
  return new ClusterBotError('SSH_UNREACHABLE', `${where} is unreachable: ${message ?? String(error)}`, {
    cause: error,
    details,
  });
}
