/** A job's id is its number (from 1) behind this: `job-42`. */
export const JOB_ID_PREFIX = 'job-';
export const jobIdOf = (number: number) => `${JOB_ID_PREFIX}${number}`;

/**
 * The one pattern of a job id, for every place that reads one from outside (a page's path, a
 * signed link, an approval button, a Roll back button): the prefix, then a number of at most 12
 * digits with no leading zero. A regex source, to embed in a larger pattern.
 */
export const JOB_ID_SOURCE = `${JOB_ID_PREFIX}[1-9][0-9]{0,11}`;
const JOB_ID = new RegExp(`^${JOB_ID_SOURCE}$`);

export const isJobId = (text: string): boolean => JOB_ID.test(text);
