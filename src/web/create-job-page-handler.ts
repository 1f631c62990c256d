import type { IncomingMessage, ServerResponse } from 'node:http';
import { JOB_ID_SOURCE } from '../jobs/ports/job-id.js';
import type { Logger } from '../log/create-logger.js';
import type { ClusterService, JobPage } from '../service/index.js';
import type { StreamSlots } from './create-stream-slots.js';
import type { JobLinks } from './job-links.js';
import { namesOfPeople } from './names-of-people.js';
import type { PageAssets } from './read-assets.js';
import { type Refusal, refusalPage } from './refusal-page.js';
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
  /**
   * The web address of a Slack message (the poster's permalink, built from the workspace's URL, no
   * Slack call); absent where there is no Slack (the console): the page then links to no thread.
   */
  readonly threadLink?: ((channel: string, ts: string) => string) | undefined;
  /** A person's Slack name (users.info, cached); absent where there is no Slack: ids alone. */
  readonly userName?: ((userId: string) => Promise<string | undefined>) | undefined;
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
    const part = page![2];
    const [nonce, exp, sig] = ['n', 'exp', 'mac'].map((name) => url.searchParams.get(name));
    if (!nonce && !exp && !sig) {
      refuse(response, part, 'incomplete');
      return true;
    }
    const checked = deps.links.check(jobId, nonce!, exp!, sig!);
    if (checked !== 'ok') {
      refuse(response, part, checked === 'expired' ? 'expired' : 'altered');
      return true;
    }
    serve(deps, jobId, nonce!, part, request, response).catch((error: unknown) => {
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
  if (!data) return refuse(response, part, 'gone');
  // A link signed for another job of this id (before Redis was reset, or under a reused prefix):
  // the job it was drawn for is gone, and of the one there now it says nothing.
  if (data.record.pageNonce !== nonce) return refuse(response, part, 'gone', 403);
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
      .end(JSON.stringify({ ...data, threadUrl: threadUrlOf(deps, data), names: await namesOf(deps, data) }));
    return;
  }
  response
    .writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' })
    .end(deps.assets.html);
}

function namesOf(deps: JobPageDeps, data: JobPage): Promise<Record<string, string>> {
  return deps.userName ? namesOfPeople(data, deps.userName) : Promise.resolve({});
}

function threadUrlOf(deps: JobPageDeps, data: JobPage): string | undefined {
  return data.thread && deps.threadLink?.(data.thread.channel, data.thread.ts);
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

const REFUSED_STATUS: Readonly<Record<Refusal, number>> = {
  incomplete: 401,
  altered: 403,
  expired: 403,
  gone: 404,
};

/**
 * A refused link: the page itself answers with a short page in fixed words (what happened, how to
 * get a new link); its data and log, read by the page's script, with the status alone.
 */
function refuse(
  response: ServerResponse,
  part: string | undefined,
  refusal: Refusal,
  status = REFUSED_STATUS[refusal],
): void {
  if (part !== undefined) {
    send(response, status);
    return;
  }
  response
    .writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' })
    .end(refusalPage(refusal));
}

/** A status and nothing else: refusals and misses carry no data. */
function send(response: ServerResponse, status: number): void {
  response.writeHead(status, SECURITY_HEADERS).end();
}
