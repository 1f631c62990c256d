import type { Logger } from '../log/create-logger.js';
import type { ClusterService } from '../service/index.js';
import { createJobPageHandler, type PageRoutes } from './create-job-page-handler.js';
import type { JobLinks } from './job-links.js';
import { readAssets } from './read-assets.js';

/** An idle log stream asks Redis every 150 ms: a printed line shows on an open page well within a second. */
const TIMING = { pollMs: 150, heartbeatMs: 15_000 };

export interface JobPages {
  readonly routes: PageRoutes;
  /** Ends the open log streams, so the listener can close. */
  stop(): void;
}

/** The job pages of a process that takes requests: their routes over the service, and their assets. */
export async function createJobPages(
  links: JobLinks,
  service: Pick<ClusterService, 'jobPage' | 'jobLog'>,
  logger: Logger,
): Promise<JobPages> {
  const stopping = new AbortController();
  const routes = createJobPageHandler({
    service,
    links,
    assets: await readAssets(),
    logger: logger.child({ component: 'job-page' }),
    timing: { ...TIMING, stop: stopping.signal },
  });
  return { routes, stop: () => stopping.abort() };
}
