import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface OpsEndpoints {
  /** Redis reachable and Slack auth ok; resolves to the problems found (none = ready). */
  readiness(): Promise<string[]>;
  metrics(): Promise<{ contentType: string; body: string }>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** `/healthz` (process up), `/readyz` (dependencies answer), `/metrics` (Prometheus text). */
export function opsRoutes(endpoints: OpsEndpoints): { path: string; handler: Handler }[] {
  return [
    {
      path: '/healthz',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      },
    },
    {
      path: '/readyz',
      handler: (_request, response) => {
        void endpoints.readiness().then((problems) => {
          response
            .writeHead(problems.length === 0 ? 200 : 503, { 'content-type': 'text/plain' })
            .end(problems.length === 0 ? 'ready\n' : `${problems.join('\n')}\n`);
        });
      },
    },
    {
      path: '/metrics',
      handler: (_request, response) => {
        void endpoints.metrics().then(({ contentType, body }) => {
          response.writeHead(200, { 'content-type': contentType }).end(body);
        });
      },
    },
  ];
}

/** For Socket Mode and worker-only processes, which have no Slack HTTP receiver to carry the routes. */
export async function startHealthServer(port: number, endpoints: OpsEndpoints): Promise<Server> {
  const routes = opsRoutes(endpoints);
  const server = createServer((request, response) => {
    const route = request.method === 'GET' ? routes.find((r) => r.path === request.url) : undefined;
    if (route) route.handler(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
