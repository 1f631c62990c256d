import { ClusterBotError } from '../errors.js';
import type { SshTarget } from '../lifecycle/ports/remote-shell.js';
import { fingerprintOfKey } from './fingerprint-of-key.js';
import { findKnownHostKeys } from './known-hosts.js';
import { preferredHostKeyAlgorithms } from './preferred-host-key-algorithms.js';
import type { ReadFile } from './read-file.js';

export interface HostKeyPolicy {
  /** Undefined when the presented raw key is the pinned one; otherwise the error to report. */
  check(rawKey: Buffer): ClusterBotError | undefined;
  /** Host key algorithms to offer first (empty: ssh2's defaults). */
  readonly preferredAlgorithms: readonly string[];
}

/** Reads what the target's host key must be, before connecting, so the check itself is synchronous. */
export async function loadHostKeyPolicy(target: SshTarget, readFile: ReadFile): Promise<HostKeyPolicy> {
  const where = `${target.label} (${target.host}:${target.port})`;
  const details = { label: target.label, host: target.host, port: target.port };

  if ('fingerprint' in target.hostKey) {
    return pinnedTo(normaliseFingerprint(target.hostKey.fingerprint), where, details);
  }

  const { knownHostsPath } = target.hostKey;
  const known = findKnownHostKeys(await readKnownHosts(knownHostsPath, readFile), target.host, target.port);
  const expected = known.filter((key) => !key.revoked).map((key) => key.fingerprint);
  const kept = target.hostKey.keptFingerprint && normaliseFingerprint(target.hostKey.keptFingerprint);
  // The bot's pin of a rebuilt node: the file still holds the old key, which must not be taken now.
  // Once the file holds the pin (or revokes it), the file alone decides.
  if (kept && !known.some((key) => key.fingerprint === kept)) {
    return pinnedTo(kept, `${where} (the bot's pin since its rebuild)`, details);
  }
  return {
    preferredAlgorithms: preferredHostKeyAlgorithms(known.map((key) => key.keyType)),
    check(rawKey) {
      const presented = fingerprintOfKey(rawKey);
      if (known.length === 0) {
        return new ClusterBotError(
          'SSH_HOST_KEY_UNKNOWN',
          `Host key of ${where} is unknown: it presented ${presented}, and ${knownHostsPath} has no entry for it`,
          { details: { ...details, presented, knownHostsPath } },
        );
      }
      return expected.includes(presented) ? undefined : mismatch(where, expected, presented, details);
    },
  };
}

/** Exactly one key is taken. */
function pinnedTo(expected: string, where: string, details: Record<string, unknown>): HostKeyPolicy {
  return {
    preferredAlgorithms: [],
    check(rawKey) {
      const presented = fingerprintOfKey(rawKey);
      return presented === expected ? undefined : mismatch(where, [expected], presented, details);
    },
  };
}

function mismatch(
  where: string,
  expected: readonly string[],
  presented: string,
  details: Record<string, unknown>,
): ClusterBotError {
  const wanted = expected.length > 0 ? expected.join(' or ') : '(only revoked keys)';
  return new ClusterBotError(
    'SSH_HOST_KEY_MISMATCH',
    `Host key of ${where} does not match: expected ${wanted}, presented ${presented}`,
    { details: { ...details, expected, presented } },
  );
}

function normaliseFingerprint(fingerprint: string): string {
  return `SHA256:${fingerprint.replace(/^SHA256:/, '').replace(/=+$/, '')}`;
}

async function readKnownHosts(path: string, readFile: ReadFile): Promise<string> {
  try {
    return (await readFile(path)).toString();
  } catch (error) {
    // A missing file only means no host is known yet.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new ClusterBotError('SSH_HOST_KEY_UNKNOWN', `Cannot read known_hosts file ${path}`, {
      cause: error,
      details: { knownHostsPath: path },
    });
  }
}
