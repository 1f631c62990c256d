import type { Logger } from '../log/create-logger.js';
import type { ClusterService } from '../service/index.js';
import { createJobLogPollers } from './create-job-log-pollers.js';
import { createJobPageHandler, type JobPageDeps, type PageRoutes } from './create-job-page-handler.js';
import { createStreamSlots } from './create-stream-slots.js';
import type { JobLinks } from './job-links.js';
import { readAssets } from './read-assets.js';
import type { LogStreamLimits } from './stream-job-log.js';

/** A job whose page is open is asked for new lines every 150 ms: a printed line shows well within a second. */
const POLL = { pollMs: 150, count: 1_000 };
const HEARTBEAT_MS = 15_000;

export interface JobPages {
  readonly routes: PageRoutes;
  /** Ends the open log streams, so the listener can close. */
  stop(): void;
  /** Log streams open, jobs polled for them, the polls and the reads they made (for metrics). */
  stats(): {
    readonly streams: number;
    readonly pollers: number;
    readonly polls: number;
    readonly pollReads: number;
  };
}

/** The job pages of a process that takes requests: their routes over the service, and their assets. */
export async function createJobPages(
  links: JobLinks,
  service: Pick<ClusterService, 'jobPage' | 'jobLog'>,
  logger: Logger,
  limits: LogStreamLimits,
  slack: Pick<JobPageDeps, 'threadLink' | 'userName'> = {},
): Promise<JobPages> {
  const stopping = new AbortController();
  const slots = createStreamSlots(limits);
  const pollers = createJobLogPollers(service, POLL);
  const routes = createJobPageHandler({
    service,
    links,
    assets: await readAssets(),
    logger: logger.child({ component: 'job-page' }),
    slots,
    pollers,
    limits,
    timing: { heartbeatMs: HEARTBEAT_MS, stop: stopping.signal },
    ...slack,
  });
  return {
    routes,
    stop: () => stopping.abort(),
    stats: () => {
      const { pollers: polled, polls, reads } = pollers.stats();
      return { streams: slots.open(), pollers: polled, polls, pollReads: reads };
    },
  };
}
