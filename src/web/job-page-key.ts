import { hkdfSync } from 'node:crypto';
import type { Env } from '../config/read-env.js';

const SALT = 'cluster-bot job page links';
const INFO = 'hmac-sha256 v1';

/**
 * The key that signs job page links: from JOB_PAGE_SECRET, else from the Slack signing secret, both
 * through HKDF so the secret itself never signs anything a browser sees (and a link leaks nothing of
 * it). read-env.ts refuses PUBLIC_URL with neither set.
 */
export function jobPageKey(env: Pick<Env, 'JOB_PAGE_SECRET' | 'SLACK_SIGNING_SECRET'>): Buffer {
  const secret = env.JOB_PAGE_SECRET ?? env.SLACK_SIGNING_SECRET;
  if (!secret) throw new Error('JOB_PAGE_SECRET: required (no SLACK_SIGNING_SECRET to derive from)');
  return Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
}
