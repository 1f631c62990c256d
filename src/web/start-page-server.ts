import { createServer, type Server } from 'node:http';
import type { ListenAddress } from '../config/listen-address.js';
import type { PageRoutes } from './create-job-page-handler.js';

/**
 * The job pages' own listener, where Bolt's HTTP receiver is not there to carry them: Socket Mode
 * and the console (in HTTP mode they share Slack's port, see create-slack-app.ts).
 */
export async function startPageServer(address: ListenAddress, routes: PageRoutes): Promise<Server> {
  const server = createServer((request, response) => {
    // No Bolt around this listener to catch what a route throws: a bad request is a 500, not a crash.
    try {
      if (!routes(request, response)) response.writeHead(404).end();
    } catch {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, resolve);
  });
  return server;
}
