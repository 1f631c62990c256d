import type { JobSummary } from '../service/index.js';
import type { Marks } from './marks.js';

/**
 * The signed link to a job's page, or undefined while there is none (no PUBLIC_URL, or the job page
 * not wired): given by the composition root, so renderers stay pure.
 */
export type JobPageUrl = (jobId: string, pageNonce: string | undefined) => string | undefined;

/** ` <link|job page>` after a job's line, or nothing while the job has no page. */
export function jobPageLink(summary: JobSummary, jobPageUrl: JobPageUrl | undefined, marks: Marks): string {
  const url = jobPageUrl?.(summary.id, summary.record?.pageNonce);
  return url ? ` ${marks.link(url, 'job page')}` : '';
}
