import type { ClusterBotError } from '../errors.js';

/**
 * A command that never reached the host: its channel was refused (sshd's MaxSessions: "open failed")
 * or the connection was already gone. Nothing ran, so the connection pool may try it again; when it
 * does not, `failure` is what the caller sees.
 */
export class ChannelNotOpened extends Error {
  constructor(
    readonly why: 'refused' | 'disconnected',
    readonly failure: ClusterBotError,
  ) {
    super(failure.message, { cause: failure });
    this.name = 'ChannelNotOpened';
  }
}

/** ssh2's CHANNEL_OPEN_FAILURE carries the server's reason code; OpenSSH refuses a session over MaxSessions so. */
export function isChannelOpenFailure(error: Error): boolean {
  return typeof (error as { reason?: unknown }).reason === 'number';
}
