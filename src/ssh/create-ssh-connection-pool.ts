import type { Client } from 'ssh2';
import { ClusterBotError } from '../errors.js';
import type { SshTarget } from '../lifecycle/ports/remote-shell.js';
import { ChannelNotOpened } from './channel-not-opened.js';
import { type ConnectSettings, connectSsh } from './connect-ssh.js';
import { loadHostKeyPolicy } from './load-host-key-policy.js';
import { tenths } from './tenths.js';

export interface PoolSettings extends ConnectSettings {
  /** Channels open at once on one connection; sshd's MaxSessions (10 by default) is the most. */
  readonly channelsPerConnection: number;
}

/** What `use` learns besides the client: how long it waited for its channel slot and connection. */
export interface ChannelGrant {
  readonly client: Client;
  readonly waitedMs: number;
}

export interface SshConnectionPool {
  /**
   * Runs `use` on the target's connection, holding one of its channel slots: the connection is
   * opened on first use, opened again after it dropped or when the pin no longer takes its host key.
   * A command whose channel was never opened (refused over MaxSessions, connection already gone) is
   * tried again; one that was may have run, so its failure is the caller's.
   */
  withChannel<T>(
    target: SshTarget,
    signal: AbortSignal | undefined,
    use: (grant: ChannelGrant) => Promise<T>,
  ): Promise<T>;
  /** Ends every connection (waiting for them to close) and refuses any later command. */
  close(): Promise<void>;
}

interface Connection {
  /** The pin it was opened under: a target pinned otherwise gets a connection of its own. */
  readonly pin: string;
  open?: { readonly client: Client; readonly hostKey: Buffer };
  opening?: Promise<void>;
  /** Channels in use, and how many may be (lowered when the server refused one). */
  busy: number;
  limit: number;
  /** Replaced (another pin for its host): ended once its channels are done. */
  retired: boolean;
  readonly waiting: Array<{ readonly wake: () => void; readonly fail: (error: unknown) => void }>;
}

/** How long close() lets a connection say goodbye before dropping its socket. */
const CLOSE_GRACE_MS = 2_000;

/**
 * One job run's SSH connections, one per host and pin, each command a channel on it (as OpenSSH's
 * ControlMaster does); never shared with another run, closed with it.
 */
export function createSshConnectionPool(settings: PoolSettings): SshConnectionPool {
  const connections = new Map<string, Connection>();
  // Retired ones too: close() ends those still finishing a command.
  const everyConnection = new Set<Connection>();
  const closing: Array<Promise<void>> = [];
  let closed = false;
  // What the run's connections cost, logged at close (the benchmark counts them per job).
  const opened = { connections: 0, connectMs: 0, hosts: new Set<string>() };

  const endpointOf = (target: SshTarget) =>
    `${target.user}@${target.host}:${target.port} ${target.privateKeyPath}`;

  /** The endpoint's connection for this pin; one opened under another pin is ended (a rebuilt node's old key). */
  const connectionFor = (target: SshTarget): Connection => {
    const endpoint = endpointOf(target);
    const pin = JSON.stringify(target.hostKey);
    const current = connections.get(endpoint);
    if (current?.pin === pin) return current;
    if (current) {
      current.retired = true;
      if (current.busy === 0) drop(current);
    }
    const fresh: Connection = {
      pin,
      busy: 0,
      limit: settings.channelsPerConnection,
      waiting: [],
      retired: false,
    };
    connections.set(endpoint, fresh);
    everyConnection.add(fresh);
    return fresh;
  };

  const drop = (connection: Connection): void => {
    const client = connection.open?.client;
    connection.open = undefined;
    if (client) closing.push(endGracefully(client));
  };

  const takeSlot = (connection: Connection, target: SshTarget, signal?: AbortSignal): Promise<void> => {
    if (connection.busy < connection.limit) {
      connection.busy += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          connection.busy += 1;
          resolve();
        },
        fail: (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        connection.waiting.splice(connection.waiting.indexOf(waiter), 1);
        reject(cancelled(target, signal, 'waiting for a channel to'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      connection.waiting.push(waiter);
    });
  };

  const release = (connection: Connection): void => {
    connection.busy -= 1;
    if (connection.busy < connection.limit) connection.waiting.shift()?.wake();
    if (connection.busy === 0 && connection.retired) drop(connection);
  };

  /** The connection's client, opened (or opened again) when needed; concurrent callers share one dial. */
  const clientOf = async (
    connection: Connection,
    target: SshTarget,
    signal?: AbortSignal,
  ): Promise<Client> => {
    const policy = await loadHostKeyPolicy(target, settings.readFile);
    // The pin is read again for every command: one that no longer takes the connection's key ends it.
    if (connection.open && policy.check(connection.open.hostKey) !== undefined) drop(connection);
    while (!connection.open) {
      connection.opening ??= open(connection, target).finally(() => {
        connection.opening = undefined;
      });
      await untilAborted(connection.opening, target, signal);
    }
    return connection.open.client;
  };

  const open = async (connection: Connection, target: SshTarget): Promise<void> => {
    const startedAt = performance.now();
    // Not the caller's signal: other commands may wait for this connection too.
    const pinned = await connectSsh(target, settings);
    if (closed) {
      closing.push(endGracefully(pinned.client));
      throw closedError(target);
    }
    const { client } = pinned;
    // Each channel listens for the connection's end; up to the limit of them at once.
    client.setMaxListeners(settings.channelsPerConnection + 10);
    client.once('close', () => {
      if (connection.open?.client !== client) return;
      connection.open = undefined;
      connection.limit = settings.channelsPerConnection;
    });
    connection.open = pinned;
    connection.limit = settings.channelsPerConnection;
    const connectMs = performance.now() - startedAt;
    opened.connections += 1;
    opened.connectMs += connectMs;
    opened.hosts.add(`${target.host}:${target.port}`);
    settings.logger.debug(
      { label: target.label, host: target.host, port: target.port, connectMs: tenths(connectMs) },
      'ssh connection opened',
    );
  };

  return {
    async withChannel(target, signal, use) {
      const startedAt = performance.now();
      for (let lostBeforeStart = 0; ; ) {
        if (closed) throw closedError(target);
        const connection = connectionFor(target);
        await takeSlot(connection, target, signal);
        try {
          const client = await clientOf(connection, target, signal);
          return await use({ client, waitedMs: performance.now() - startedAt });
        } catch (error) {
          if (!(error instanceof ChannelNotOpened)) throw error;
          if (error.why === 'refused' && connection.busy > 1) {
            // sshd allows fewer sessions than configured: wait for one of ours to end.
            connection.limit = Math.max(1, connection.busy - 1);
            continue;
          }
          if (error.why === 'disconnected' && lostBeforeStart++ === 0) {
            drop(connection);
            continue;
          }
          throw error.failure;
        } finally {
          release(connection);
        }
      }
    },
    async close() {
      if (!closed) {
        closed = true;
        settings.logger.debug(
          { connections: opened.connections, hosts: opened.hosts.size, connectMs: tenths(opened.connectMs) },
          'ssh connections closed',
        );
        for (const connection of everyConnection) {
          for (const waiter of connection.waiting.splice(0)) waiter.fail(closedError());
          drop(connection);
        }
        connections.clear();
      }
      await Promise.all(closing);
    },
  };
}

/** Ends the SSH session (a disconnect message, as `ssh` does on exit); drops the socket if the peer never answers. */
function endGracefully(client: Client): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.destroy();
      resolve();
    }, CLOSE_GRACE_MS);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    client.end();
  });
}

async function untilAborted<T>(work: Promise<T>, target: SshTarget, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) throw cancelled(target, signal, 'connecting to');
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled(target, signal, 'connecting to'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function cancelled(target: SshTarget, signal: AbortSignal | undefined, doing: string): ClusterBotError {
  const where = `${target.label} (${target.host}:${target.port})`;
  return new ClusterBotError('CANCELLED', `Cancelled while ${doing} ${where}`, {
    cause: signal?.reason,
    details: { label: target.label, host: target.host, port: target.port },
  });
}

/** A command after the run's end (or SIGTERM): its connections are gone, as if the worker had died. */
function closedError(target?: SshTarget): ClusterBotError {
  const where = target ? ` to ${target.label} (${target.host}:${target.port})` : '';
  return new ClusterBotError('SSH_CONNECTION_LOST', `The job run's SSH connections${where} were closed`, {
    details: target ? { label: target.label, host: target.host, port: target.port } : {},
  });
}
