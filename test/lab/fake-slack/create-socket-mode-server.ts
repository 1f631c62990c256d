import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { SlackState } from './create-slack-state.js';
import type { SocketAck } from './fake-slack-types.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface DeliverOptions {
  /** How long to wait for the ack; Slack gives an app 3 s. */
  ackTimeoutMs?: number;
  retryAttempt?: number;
  retryReason?: string;
  /** Reuse an envelope id to replay an envelope exactly. */
  envelopeId?: string;
}

export interface Delivery {
  envelopeId: string;
  /** The ack the app sent back, or undefined if none came before the timeout. */
  ack: SocketAck | undefined;
  latencyMs: number;
}

export type SocketModeServer = ReturnType<typeof createSocketModeServer>;

/** The Socket Mode side of Slack: tickets from apps.connections.open, hello, envelopes, acks. */
export function createSocketModeServer(options: { state: SlackState; now: () => number }) {
  const { state, now } = options;
  // noServer: upgraded from the fake's own HTTP server.
  const wss = new WebSocketServer({ noServer: true });
  const tickets = new Set<string>();
  const connections: WebSocket[] = [];
  const waiters = new Map<string, (ack: SocketAck) => void>();

  function onMessage(data: RawData) {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (typeof message.envelope_id !== 'string') return;
    const ack: SocketAck = { envelope_id: message.envelope_id, at: now() };
    if (typeof message.payload === 'object' && message.payload !== null) {
      ack.payload = message.payload as Record<string, unknown>;
    }
    state.acks.push(ack);
    waiters.get(ack.envelope_id)?.(ack);
  }

  function accept(connection: WebSocket) {
    connections.push(connection);
    connection.on('message', (data) => onMessage(data));
    connection.on('close', () => {
      const index = connections.indexOf(connection);
      if (index >= 0) connections.splice(index, 1);
    });
    connection.send(
      JSON.stringify({
        type: 'hello',
        num_connections: connections.length,
        debug_info: { host: 'fake-slack', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: state.identity.appId },
      }),
    );
  }

  function current(): WebSocket {
    const open = connections.filter((c) => c.readyState === WebSocket.OPEN);
    const connection = open[open.length - 1];
    if (!connection) throw new Error('fake Slack: no open Socket Mode connection to deliver to');
    return connection;
  }

  return {
    /** A one-use ws:// URL, as apps.connections.open hands out. */
    issueUrl(baseUrl: string): string {
      const ticket = randomUUID();
      tickets.add(ticket);
      const wsBase = baseUrl.replace(/^http/, 'ws');
      return `${wsBase}/socket?ticket=${ticket}&app_id=${state.identity.appId}`;
    },
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
      const ticket = url.searchParams.get('ticket') ?? '';
      if (url.pathname !== '/socket' || !tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, accept);
    },
    get openConnections(): number {
      return connections.filter((c) => c.readyState === WebSocket.OPEN).length;
    },
    async deliver(type: EnvelopeType, payload: unknown, options: DeliverOptions = {}): Promise<Delivery> {
      const envelopeId = options.envelopeId ?? randomUUID();
      const connection = current();
      const started = performance.now();
      const acked = new Promise<SocketAck | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), options.ackTimeoutMs ?? 3_000);
        waiters.set(envelopeId, (ack) => {
          clearTimeout(timer);
          resolve(ack);
        });
      });
      connection.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: type !== 'events_api',
          ...(options.retryAttempt !== undefined && {
            retry_attempt: options.retryAttempt,
            retry_reason: options.retryReason ?? 'timeout',
          }),
        }),
      );
      const ack = await acked;
      waiters.delete(envelopeId);
      return { envelopeId, ack, latencyMs: performance.now() - started };
    },
    /** Slack asks clients to reconnect this way (e.g. before a server restart). */
    disconnect(reason = 'refresh_requested'): void {
      for (const connection of connections) {
        if (connection.readyState !== WebSocket.OPEN) continue;
        connection.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake-slack' } }));
      }
    },
    /** Closes like a server going away (1001), then cuts whatever did not finish the handshake. */
    async close(graceMs = 1_000): Promise<void> {
      for (const connection of connections) {
        if (connection.readyState === WebSocket.OPEN) connection.close(1001, 'server shutting down');
      }
      const deadline = Date.now() + graceMs;
      while (connections.length > 0 && Date.now() < deadline) await sleep(10);
      for (const connection of connections) connection.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
