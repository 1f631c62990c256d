import type { JobSummary } from '../service/index.js';

/**
 * The signed link to a job's page, or undefined while there is none (no PUBLIC_URL, or the job page
 * not wired): given by the composition root, so renderers stay pure.
 */
export type JobPageUrl = (jobId: string, pageNonce: string | undefined) => string | undefined;

/** A job page link in mrkdwn: the URL's `&` escaped as Slack wants inside <…> (it holds no `<`, `>` or `|`). */
export function pageLinkMrkdwn(url: string, label: string): string {
  return `<${url.replaceAll('&', '&amp;')}|${label}>`;
}

/** ` <link|job page>` after a job's line, or nothing while the job has no page. */
export function jobPageLink(summary: JobSummary, jobPageUrl: JobPageUrl | undefined): string {
  const url = jobPageUrl?.(summary.id, summary.record?.pageNonce);
  return url ? ` ${pageLinkMrkdwn(url, 'job page')}` : '';
}
