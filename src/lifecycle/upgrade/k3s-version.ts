/** A k3s release as `k3s_version` and `status.nodeInfo.kubeletVersion` write it: `v1.36.4+k3s1`. */
export interface K3sVersion {
  readonly text: string;
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** k3s's own revision of that Kubernetes release (`+k3s1`); 0 when absent. */
  readonly revision: number;
}

const VERSION = /^v(\d+)\.(\d+)\.(\d+)(?:\+k3s(\d+))?$/;

/** Undefined for anything else (a pre-release, a channel name such as `stable`): the bot does not guess. */
export function parseK3sVersion(text: string): K3sVersion | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const [major, minor, patch, revision] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  return { text: text.trim(), major, minor, patch, revision };
}

/** Negative when a is older than b, 0 when the same release, positive when newer. */
export function compareK3sVersions(a: K3sVersion, b: K3sVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || a.revision - b.revision;
}
