import { hkdfSync } from 'node:crypto';
import type { Env } from '../config/read-env.js';

const SALT = 'cluster-bot job page links';
const INFO = 'hmac-sha256 v1';

/**
 * The key that signs job page links: from JOB_PAGE_SECRET alone, through HKDF so the secret itself
 * never signs anything a browser sees (and a link leaks nothing of it). Never from the Slack signing
 * secret: a worker, which writes the boards' links, must not hold that (it forges Slack requests).
 * read-env.ts refuses PUBLIC_URL without JOB_PAGE_SECRET.
 */
export function jobPageKey(env: Pick<Env, 'JOB_PAGE_SECRET'>): Buffer {
  if (!env.JOB_PAGE_SECRET) throw new Error('JOB_PAGE_SECRET: required to sign job page links');
  return Buffer.from(hkdfSync('sha256', env.JOB_PAGE_SECRET, SALT, INFO, 32));
}
