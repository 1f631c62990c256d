import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** `GET /healthz`: the process is up. Served by Bolt's receiver over HTTP, by this server otherwise. */
export function answerHealth(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('ok\n');
}

/** For Socket Mode and worker-only processes, which have no Slack HTTP receiver to carry /healthz. */
export async function startHealthServer(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/healthz') return answerHealth(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
