import { createHmac } from 'node:crypto';
import { fingerprintOfKey } from './fingerprint-of-key.js';

export interface KnownHostKey {
  readonly keyType: string;
  /** `SHA256:...` of the key blob. */
  readonly fingerprint: string;
  /** An `@revoked` line: the host is known, and this key must be refused. */
  readonly revoked: boolean;
}

/**
 * The keys an OpenSSH known_hosts text holds for host:port. Host fields may be `host` (port 22),
 * `[host]:port`, comma lists with `*`/`?` wildcards and `!` negations, or hashed `|1|salt|hash`.
 * `@cert-authority` lines are ignored: certificates are not used here.
 */
export function findKnownHostKeys(knownHosts: string, host: string, port: number): KnownHostKey[] {
  const name = port === 22 ? host : `[${host}]:${port}`;
  const keys: KnownHostKey[] = [];
  for (const rawLine of knownHosts.split('\n')) {
    const fields = rawLine.trim().split(/\s+/);
    if (fields[0] === '' || fields[0]!.startsWith('#')) continue;
    const marker = fields[0]!.startsWith('@') ? fields.shift() : undefined;
    const [hostField, keyType, keyBase64] = fields;
    if (marker === '@cert-authority' || !hostField || !keyType || !keyBase64) continue;
    if (!hostFieldMatches(hostField, name)) continue;
    keys.push({
      keyType,
      fingerprint: fingerprintOfKey(Buffer.from(keyBase64, 'base64')),
      revoked: marker === '@revoked',
    });
  }
  return keys;
}

function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    if (!salt || !hash) return false;
    return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
  }
  let matched = false;
  for (const pattern of field.split(',')) {
    const negated = pattern.startsWith('!');
    if (!globToRegExp(negated ? pattern.slice(1) : pattern).test(name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`, 'i');
}
