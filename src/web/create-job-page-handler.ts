import type { IncomingMessage, ServerResponse } from 'node:http';
import { JOB_ID_SOURCE } from '../jobs/ports/job-id.js';
import type { Logger } from '../log/create-logger.js';
import type { ClusterService } from '../service/index.js';
import type { StreamSlots } from './create-stream-slots.js';
import type { JobLinks } from './job-links.js';
import type { PageAssets } from './read-assets.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { type LogStreamDeps, streamJobLog } from './stream-job-log.js';

/** Handles a request if it is the job page's (true), else leaves it to the next listener (false). */
export type PageRoutes = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface JobPageDeps extends LogStreamDeps {
  readonly service: Pick<ClusterService, 'jobPage' | 'jobLog'>;
  readonly links: JobLinks;
  readonly assets: PageAssets;
  readonly logger: Logger;
  readonly slots: StreamSlots;
}

// Matched as it stands, never decoded: a bad %-escape is no page at all.
const PAGE = new RegExp(`^/jobs/(${JOB_ID_SOURCE})(/data|/log)?$`);
const ASSET = /^\/assets\/([a-z.-]+)$/;

/**
 * The job page's routes: `/jobs/<id>` (the page), `/jobs/<id>/data` (its JSON), `/jobs/<id>/log`
 * (the log as Server-Sent Events), each opened only by the job's signed link (401 without it, 403
 * when tampered with or expired, and no data either way); `/assets/…` (script and style, no data).
 */
export function createJobPageHandler(deps: JobPageDeps): PageRoutes {
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://page.invalid');
    const asset = ASSET.exec(url.pathname);
    const page = PAGE.exec(url.pathname);
    if (!asset && !page) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405);
      return true;
    }
    if (asset) {
      const file = deps.assets.files.get(asset[1]!);
      if (file) response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': file.type }).end(file.body);
      else send(response, 404);
      return true;
    }
    const jobId = page![1]!;
    const [nonce, exp, sig] = ['n', 'exp', 'mac'].map((name) => url.searchParams.get(name));
    if (!nonce && !exp && !sig) {
      send(response, 401);
      return true;
    }
    if (deps.links.check(jobId, nonce!, exp!, sig!) !== 'ok') {
      send(response, 403);
      return true;
    }
    serve(deps, jobId, nonce!, page![2], request, response).catch((error: unknown) => {
      deps.logger.warn({ err: error, jobId }, 'job page: request failed');
      if (!response.headersSent) send(response, 500);
      else response.end();
    });
    return true;
  };
}

async function serve(
  deps: JobPageDeps,
  jobId: string,
  nonce: string,
  part: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const data = await deps.service.jobPage(jobId);
  if (!data) return send(response, 404);
  // A link signed for another job of this id (before Redis was reset, or under a reused prefix).
  if (data.record.pageNonce !== nonce) return send(response, 403);
  if (part === '/log') {
    const slot = deps.slots.take(jobId);
    if (slot !== 'taken') return refuseStream(response, slot, deps.limits);
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'x-accel-buffering': 'no',
    });
    const last = request.headers['last-event-id'];
    try {
      return await streamJobLog(deps, jobId, typeof last === 'string' ? last : undefined, response);
    } finally {
      deps.slots.release(jobId);
    }
  }
  if (part === '/data') {
    response
      .writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'application/json' })
      .end(JSON.stringify(data));
    return;
  }
  response
    .writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' })
    .end(deps.assets.html);
}

/** 429 past a cap, in words a person reading the response can act on (no data of the job). */
function refuseStream(
  response: ServerResponse,
  full: 'process-full' | 'job-full',
  limits: LogStreamDeps['limits'],
): void {
  const text =
    full === 'job-full'
      ? `Too many open log streams for this job (${limits.perJob}): close another page of it and reload.\n`
      : `Too many open log streams (${limits.perProcess}): try again in a minute.\n`;
  response
    .writeHead(429, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30' })
    .end(text);
}

/** A status and nothing else: refusals and misses carry no data. */
function send(response: ServerResponse, status: number): void {
  response.writeHead(status, SECURITY_HEADERS).end();
}
