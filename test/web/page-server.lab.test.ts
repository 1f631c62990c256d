import { request } from 'node:http';
import type { Server } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/config/read-env.js';
import type { JobRecord } from '../../src/jobs/job-record.js';
import type { JobLogChunk } from '../../src/service/read-job-page.js';
import { createJobLogPollers } from '../../src/web/create-job-log-pollers.js';
import { createJobPageHandler } from '../../src/web/create-job-page-handler.js';
import { createStreamSlots } from '../../src/web/create-stream-slots.js';
import { createJobLinks } from '../../src/web/job-links.js';
import { logStreamLimitsFromEnv } from '../../src/web/log-stream-limits-from-env.js';
import { readAssets } from '../../src/web/read-assets.js';
import { startPageServer } from '../../src/web/start-page-server.js';

const links = createJobLinks({
  baseUrl: 'http://127.0.0.1',
  key: Buffer.alloc(32, 7),
  ttlMs: 60_000,
  now: Date.now,
});
// A settled job whose log holds an entry with line breaks in it (a refusal list, a health summary).
const LOG: JobLogChunk = {
  lines: [
    { id: '1-0', text: '# refused:\n- first reason\r\n- second reason' },
    // Stored in the same millisecond: one event (an event holds one millisecond's lines).
    { id: '1-1', text: 'last line' },
  ],
  ended: true,
};

const JOB: JobRecord = {
  id: 'job-1',
  number: 1,
  command: { verb: 'verify', cluster: 'dev' },
  requestedBy: 'U0ALICE',
  channel: 'C0OPS',
  createdAt: 0,
  pageNonce: 'AAAAAAAAAAAAAAAAAAAAAA',
};

let server: Server;
let port: number;
beforeAll(async () => {
  const service = {
    // The job as the page reads it: only its record's page nonce matters to the log stream.
    jobPage: async () => ({ record: JOB, title: 'verify dev', steps: [], events: [], approvals: [] }),
    jobLog: async (_jobId: string, after: string) => (after === '0' ? LOG : { lines: [], ended: true }),
  };
  const limits = logStreamLimitsFromEnv(readEnv({}));
  const routes = createJobPageHandler({
    service,
    links,
    assets: await readAssets(),
    logger: pino({ level: 'silent' }),
    slots: createStreamSlots(limits),
    pollers: createJobLogPollers(service, { pollMs: 10, count: 100 }),
    limits,
    timing: { heartbeatMs: 60_000 },
  });
  server = await startPageServer({ host: '127.0.0.1', port: 0 }, routes);
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe("the job pages' own listener (Socket Mode and the console)", () => {
  it('answers a path that is no job (a bad %-escape) with 404, and goes on serving', async () => {
    expect((await get('/jobs/%ZZ')).status).toBe(404);
    expect((await get('/jobs/job-1%')).status).toBe(404);
    expect((await get('/jobs/job-1')).status).toBe(401);
  });

  it('sends each line of a multi-line log entry as its own data line, inside one event', async () => {
    const link = new URL(links.url('job-1', JOB.pageNonce)!);
    const { status, body } = await get(`/jobs/job-1/log${link.search}`);
    expect(status).toBe(200);
    const events = body.split('\n\n').filter((event) => event.includes('event: '));
    expect(events[0]!.split('\n')).toEqual([
      'id: 1-1',
      'event: lines',
      'data: # refused:',
      'data: - first reason',
      'data: - second reason',
      'data: last line',
    ]);
    expect(events[1]).toBe('event: end\ndata: ');
  });
});
