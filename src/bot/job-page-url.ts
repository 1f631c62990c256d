/**
 * The signed link to a job's page, or undefined while there is none (no PUBLIC_URL, or the job page
 * not wired): given by the composition root, so renderers stay pure.
 */
export type JobPageUrl = (jobId: string) => string | undefined;
