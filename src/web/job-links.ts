import { createHmac, timingSafeEqual } from 'node:crypto';
import { isJobId } from '../jobs/ports/job-id.js';

export interface JobLinks {
  /**
   * The signed link to a job's page, valid for the configured lifetime from now (up to an hour
   * more), bound to the job's page nonce; undefined for a job recorded without one (none to bind).
   */
  url(jobId: string, pageNonce: string | undefined): string | undefined;
  /**
   * Whether a request's `n`, `exp` and `sig` are a link this key signed for this job id, unexpired.
   * The caller then compares `n` with the nonce recorded with the job: the signature alone cannot
   * tell this job-7 from a job-7 recorded before Redis was reset.
   */
  check(
    jobId: string,
    nonce: string | null,
    exp: string | null,
    sig: string | null,
  ): 'ok' | 'expired' | 'invalid';
}

/** A page nonce: 16 random bytes, base64url (create-job-queue.ts). */
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const EXPIRY_STEP_MS = 3_600_000;

/**
 * Links that open one job's page until they expire: `<base>/jobs/<id>?n=<nonce>&exp=<unix s>&mac=<HMAC>` (`mac`, not `sig`: the redactor masks `sig=` in every URL it sees, and these links are the bot's own),
 * the HMAC-SHA256 of the job id, its page nonce and the expiry under the page key. The signature is
 * compared as the one string it must be (base64url of the HMAC, as `url` writes it), in constant
 * time: a decoding that takes other spellings of the same bytes would let a link be re-spelt.
 */
export function createJobLinks(options: {
  readonly baseUrl: string;
  readonly key: Buffer;
  readonly ttlMs: number;
  readonly now: () => number;
}): JobLinks {
  const base = options.baseUrl.replace(/\/+$/, '');
  const sign = (jobId: string, nonce: string, exp: string) =>
    createHmac('sha256', options.key).update(`${jobId}\n${nonce}\n${exp}`).digest('base64url');
  return {
    url(jobId, pageNonce) {
      if (!pageNonce) return undefined;
      // Rounded up to the hour: a link drawn again within the hour is the same link, so a view
      // that shows it (the App Home, refreshed every few seconds) is unchanged and not republished.
      const exp = String(
        Math.ceil((options.now() + options.ttlMs) / EXPIRY_STEP_MS) * (EXPIRY_STEP_MS / 1_000),
      );
      return `${base}/jobs/${jobId}?n=${pageNonce}&exp=${exp}&mac=${sign(jobId, pageNonce, exp)}`;
    },
    check(jobId, nonce, exp, sig) {
      if (!isJobId(jobId) || !nonce || !NONCE.test(nonce) || !exp || !/^\d{1,12}$/.test(exp) || !sig)
        return 'invalid';
      const given = Buffer.from(sig, 'utf8');
      const expected = Buffer.from(sign(jobId, nonce, exp), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(exp) * 1_000 > options.now() ? 'ok' : 'expired';
    },
  };
}
