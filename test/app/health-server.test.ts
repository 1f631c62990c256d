import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer } from '../../src/app/health-server.js';
import { freePort } from '../support/free-port.js';

let server: Server | undefined;
afterEach(() => {
  server?.close();
});

describe('ops endpoints without a Slack HTTP receiver (Socket Mode, worker)', () => {
  it('healthz is up while readyz says what is not ready, and metrics are Prometheus text', async () => {
    const port = await freePort();
    server = await startHealthServer(port, {
      readiness: async () => ['redis: connect ECONNREFUSED 127.0.0.1:6379'],
      metrics: async () => ({ contentType: 'text/plain; version=0.0.4', body: 'cluster_bot_jobs_total 0\n' }),
    });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe('redis: connect ECONNREFUSED 127.0.0.1:6379\n');
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toBe('cluster_bot_jobs_total 0\n');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
