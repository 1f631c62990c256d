import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeSimHandle } from './kube-sim/start-kube-sim.js';

export interface SimRelay {
  /** http://127.0.0.1:PORT: what the lab playbooks get as lab_kube_sim_url. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Plain HTTP in front of kube-sim's `/_sim/*` control endpoints. The lab playbooks' `uri` tasks
 * verify TLS and the sim's CA is a throwaway one, so they talk to this relay instead, which
 * forwards each request over HTTPS trusting that CA.
 */
export async function startSimRelay(sim: KubeSimHandle): Promise<SimRelay> {
  const server = createServer((incoming, reply) => {
    void readBody(incoming).then((body) => {
      const forwarded = request(
        `${sim.url}${incoming.url ?? '/'}`,
        {
          method: incoming.method,
          ca: sim.caPem,
          headers: { 'content-type': incoming.headers['content-type'] ?? 'application/json' },
        },
        (answer) => {
          reply.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
          answer.pipe(reply);
        },
      );
      forwarded.on('error', (error) => {
        reply.writeHead(502, { 'content-type': 'application/json' });
        reply.end(JSON.stringify({ ok: false, error: error.message }));
      });
      forwarded.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}
