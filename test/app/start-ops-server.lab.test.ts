import type { Server } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpsServer } from '../../src/app/start-ops-server.js';
import { freePort } from '../support/free-port.js';

let server: Server | undefined;
afterEach(() => {
  server?.close();
});

describe('ops endpoints on their own port', () => {
  it('healthz is up; readyz says only "not ok" and logs why; metrics are Prometheus text', async () => {
    const port = await freePort();
    const logged: string[] = [];
    const logger = pino({}, { write: (line: string) => logged.push(line) });
    server = await startOpsServer(
      { host: '127.0.0.1', port },
      {
        readiness: async () => ['redis: connect ECONNREFUSED 127.0.0.1:6379'],
        metrics: async () => ({
          contentType: 'text/plain; version=0.0.4',
          body: 'cluster_bot_jobs_total 0\n',
        }),
      },
      logger,
    );
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe('not ok\n');
    expect(logged.join('')).toContain('redis: connect ECONNREFUSED 127.0.0.1:6379');
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toBe('cluster_bot_jobs_total 0\n');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
