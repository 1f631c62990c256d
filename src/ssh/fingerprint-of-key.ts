import { createHash } from 'node:crypto';

/** OpenSSH's `SHA256:` fingerprint (as `ssh-keygen -lf` prints it) of a raw public key blob. */
export function fingerprintOfKey(raw: Buffer): string {
  return `SHA256:${createHash('sha256').update(raw).digest('base64').replace(/=+$/, '')}`;
}
