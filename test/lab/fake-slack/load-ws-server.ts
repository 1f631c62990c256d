import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';

/** The slice of `ws` the fake uses, typed here because @types/ws is not installed. */
export interface WsConnection {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): this;
  on(event: 'close', listener: () => void): this;
}

export interface WsServer {
  handleUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (connection: WsConnection) => void,
  ): void;
  close(callback?: () => void): void;
}

export const wsOpen = 1;

/** A WebSocket server in noServer mode, upgraded from the fake's own HTTP server. */
export function loadWsServer(): WsServer {
  const require = createRequire(import.meta.url);
  const ws = require('ws') as { WebSocketServer: new (options: { noServer: true }) => WsServer };
  return new ws.WebSocketServer({ noServer: true });
}
