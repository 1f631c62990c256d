/** A k3s release as `k3s_version` and `status.nodeInfo.kubeletVersion` write it: `v1.36.4+k3s1`. */
export interface K3sVersion {
  readonly text: string;
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** k3s's own revision of that Kubernetes release (`+k3s1`): part of every release's name. */
  readonly revision: number;
}

const VERSION = /^v(\d+)\.(\d+)\.(\d+)\+k3s(\d+)$/;

/**
 * Undefined for anything else (a pre-release, a channel name such as `stable`, a Kubernetes version
 * without its `+k3sN`): the bot does not guess which k3s release is meant.
 */
export function parseK3sVersion(text: string): K3sVersion | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const [major, minor, patch, revision] = match.slice(1).map(Number) as [number, number, number, number];
  return { text: text.trim(), major, minor, patch, revision };
}

/** Negative when a is older than b, 0 when the same release, positive when newer. */
export function compareK3sVersions(a: K3sVersion, b: K3sVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || a.revision - b.revision;
}

/** Two version strings name the same k3s release; false when either is not one. */
export function sameK3sRelease(a: string | undefined, b: string): boolean {
  const [left, right] = [a === undefined ? undefined : parseK3sVersion(a), parseK3sVersion(b)];
  return left !== undefined && right !== undefined && compareK3sVersions(left, right) === 0;
}
