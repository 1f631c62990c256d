import type { Env } from '../config/read-env.js';
import { createJobLinks, type JobLinks } from './job-links.js';
import { jobPageKey } from './job-page-key.js';

/** The job pages' links when PUBLIC_URL is set; undefined (no link, no page) when it is not. */
export function jobLinksFromEnv(env: Env, now: () => number): JobLinks | undefined {
  if (!env.PUBLIC_URL) return undefined;
  return createJobLinks({ baseUrl: env.PUBLIC_URL, key: jobPageKey(env), ttlMs: env.JOB_PAGE_TTL, now });
}
