import { createServer, type Server } from 'node:http';
import type { ListenAddress } from '../config/listen-address.js';
import type { Logger } from '../log/create-logger.js';

export interface OpsEndpoints {
  /** Redis reachable and Slack auth ok; resolves to the problems found (none = ready). */
  readiness(): Promise<string[]>;
  metrics(): Promise<{ contentType: string; body: string }>;
}

/**
 * `/healthz` (process up), `/readyz` (dependencies answer), `/metrics` (Prometheus text) on their
 * own port, kept off the Slack listener: what is wrong and what the bot counts is for the cluster's
 * probes and Prometheus, not for whoever can reach the public URL. `/readyz` only says ok or not;
 * the reasons go to the log.
 */
export async function startOpsServer(
  address: ListenAddress,
  endpoints: OpsEndpoints,
  logger: Logger,
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = request.method === 'GET' ? request.url : undefined;
    if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    } else if (path === '/readyz') {
      void endpoints.readiness().then((problems) => {
        if (problems.length > 0) logger.warn({ problems }, 'not ready');
        response
          .writeHead(problems.length === 0 ? 200 : 503, { 'content-type': 'text/plain' })
          .end(problems.length === 0 ? 'ok\n' : 'not ok\n');
      });
    } else if (path === '/metrics') {
      void endpoints.metrics().then(({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType }).end(body);
      });
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, resolve);
  });
  return server;
}
