// The job page's edge: what the composition root wires (links, routes, their own listener).
export type { PageRoutes } from './create-job-page-handler.js';
export { createJobPages, type JobPages } from './create-job-pages.js';
export type { JobLinks } from './job-links.js';
export { jobLinksFromEnv } from './job-links-from-env.js';
export { logStreamLimitsFromEnv } from './log-stream-limits-from-env.js';
export { startPageServer } from './start-page-server.js';
