import { compareK3sVersions, parseK3sVersion } from './k3s-version.js';

/** One server's running version, as its Node reports it (`status.nodeInfo.kubeletVersion`). */
export interface RunningVersion {
  readonly server: string;
  /** Undefined when the server has no Node (not registered). */
  readonly version: string | undefined;
}

export interface UpgradeVersionVerdict {
  /** Every reason the upgrade is refused, all at once; empty when it may go. */
  readonly problems: readonly string[];
  /** The servers whose version differs from the target, in the order given (the order they go). */
  readonly upgrades: readonly { readonly server: string; readonly from: string }[];
}

/**
 * Kubernetes' skew rule for the servers of an HA k3s cluster: one minor version at a time and never
 * back (etcd and the API's stored objects do not downgrade). Each problem names the server, its
 * version and the target, so the operator sees the whole cluster in one refusal.
 */
export function upgradeVersionVerdict(
  target: string,
  running: readonly RunningVersion[],
): UpgradeVersionVerdict {
  const wanted = parseK3sVersion(target);
  if (!wanted)
    return {
      problems: [`k3s_version ${JSON.stringify(target)} is not a k3s release such as v1.36.4+k3s1`],
      upgrades: [],
    };
  const problems: string[] = [];
  const upgrades: { server: string; from: string }[] = [];
  for (const { server, version } of running) {
    const now = version === undefined ? undefined : parseK3sVersion(version);
    if (!now) {
      problems.push(
        version === undefined
          ? `${server} has no Node: its running version is unknown`
          : `${server} runs ${JSON.stringify(version)}, not a k3s release the bot can compare with ${target}`,
      );
      continue;
    }
    const order = compareK3sVersions(wanted, now);
    if (order === 0) continue;
    if (order < 0) problems.push(`${server} runs ${now.text}, newer than ${target}: a downgrade is refused`);
    else if (wanted.major !== now.major || wanted.minor - now.minor > 1)
      problems.push(
        `${server} runs ${now.text}, more than one minor version below ${target}: upgrade one minor version at a time`,
      );
    else upgrades.push({ server, from: now.text });
  }
  return { problems, upgrades: problems.length > 0 ? [] : upgrades };
}
