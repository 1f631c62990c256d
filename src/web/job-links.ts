import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JobLinks {
  /** The signed link to a job's page, valid for the configured lifetime from now (up to an hour more). */
  url(jobId: string): string;
  /** Whether a request's `exp` and `sig` open this job's page now. */
  check(jobId: string, exp: string | null, sig: string | null): 'ok' | 'expired' | 'invalid';
}

/** What a job id looks like in a link: plain ASCII, so a path is matched as it stands, never decoded. */
export const JOB_ID_SOURCE = 'job-\\d{1,12}';
const JOB_ID = new RegExp(`^${JOB_ID_SOURCE}$`);
const EXPIRY_STEP_MS = 3_600_000;

/**
 * Links that open one job's page until they expire: `<base>/jobs/<id>?exp=<unix s>&sig=<HMAC>`, the
 * HMAC-SHA256 of the job id and the expiry under the page key. Comparing takes the same time
 * whatever the signature, so it cannot be guessed byte by byte.
 */
export function createJobLinks(options: {
  readonly baseUrl: string;
  readonly key: Buffer;
  readonly ttlMs: number;
  readonly now: () => number;
}): JobLinks {
  const base = options.baseUrl.replace(/\/+$/, '');
  const sign = (jobId: string, exp: string) =>
    createHmac('sha256', options.key).update(`${jobId}\n${exp}`).digest();
  return {
    url(jobId) {
      // Rounded up to the hour: a link drawn again within the hour is the same link, so a view
      // that shows it (the App Home, refreshed every few seconds) is unchanged and not republished.
      const exp = String(
        Math.ceil((options.now() + options.ttlMs) / EXPIRY_STEP_MS) * (EXPIRY_STEP_MS / 1_000),
      );
      return `${base}/jobs/${jobId}?exp=${exp}&sig=${sign(jobId, exp).toString('base64url')}`;
    },
    check(jobId, exp, sig) {
      if (!JOB_ID.test(jobId) || !exp || !/^\d{1,12}$/.test(exp) || !sig) return 'invalid';
      const given = Buffer.from(sig, 'base64url');
      const expected = sign(jobId, exp);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(exp) * 1_000 > options.now() ? 'ok' : 'expired';
    },
  };
}
