/** One revision of a Helm release, from `helm history <release> -o json`. */
export interface HelmRevision {
  readonly revision: number;
  readonly updated: string;
  /** deployed, superseded, failed, pending-install, pending-upgrade, pending-rollback, uninstalled, ... */
  readonly status: string;
  /** `<chart>-<version>`, e.g. cilium-1.20.1 */
  readonly chart: string;
  readonly appVersion: string;
  readonly description: string;
}

/** One element of helm's JSON, as printed (nothing checked yet). */
interface RawRevision {
  readonly revision?: unknown;
  readonly updated?: unknown;
  readonly status?: unknown;
  readonly chart?: unknown;
  readonly app_version?: unknown;
  readonly description?: unknown;
}

/** The rollback to run: from the newest revision to `to`. */
export interface RollbackTarget {
  readonly from: HelmRevision;
  readonly to: HelmRevision;
}

/** Revisions a release can go back to: they were installed and worked until something replaced them. */
const GOOD_STATUSES = new Set(['deployed', 'superseded']);

/** Parses helm's JSON (a list of releaseInfo); throws with what is wrong when it is not that shape. */
export function parseHelmHistory(text: string): HelmRevision[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`helm history printed no JSON: ${text.slice(0, 200)}`);
  }
  if (!Array.isArray(parsed)) throw new Error('helm history printed JSON that is not a list of revisions');
  return (parsed as (RawRevision | null)[])
    .map((entry) => {
      if (typeof entry?.revision !== 'number' || typeof entry.status !== 'string')
        throw new Error(
          `helm history printed a revision without a number or status: ${JSON.stringify(entry)}`,
        );
      return {
        revision: entry.revision,
        updated: String(entry.updated ?? ''),
        status: entry.status,
        chart: String(entry.chart ?? ''),
        appVersion: String(entry.app_version ?? ''),
        description: String(entry.description ?? ''),
      };
    })
    .sort((a, b) => a.revision - b.revision);
}

/** Helm's description of a revision `helm rollback` made: "Rollback to 2". */
const ROLLBACK_DESCRIPTION = /^Rollback to (\d+)$/;

/** The revision a rollback revision went back to, or undefined when `entry` is no rollback. */
function rolledBackTo(entry: HelmRevision): number | undefined {
  const match = ROLLBACK_DESCRIPTION.exec(entry.description.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * Revisions some rollback moved away from: a rollback at L to N rejected every revision between N
 * and L (they ran, so helm marks them superseded, yet someone judged them bad). Without this a
 * second rollback would pick the bad upgrade the first one left.
 */
function rejectedByRollbacks(history: readonly HelmRevision[]): Set<number> {
  const rejected = new Set<number>();
  for (const entry of history) {
    const to = rolledBackTo(entry);
    if (to === undefined) continue;
    for (const other of history)
      if (other.revision > to && other.revision < entry.revision) rejected.add(other.revision);
  }
  return rejected;
}

/**
 * The revision to roll back to: the one asked for, which must be in the history and not the newest.
 * Else, when the newest revision is itself a rollback, none: it already went back, and going back
 * again unasked would guess (and used to pick the bad upgrade). Else the last good revision before
 * the newest that no later rollback moved away from. A string says why there is none.
 */
export function pickRollbackTarget(
  history: readonly HelmRevision[],
  requested: number | undefined,
): RollbackTarget | string {
  const from = history.at(-1);
  if (!from) return 'the release has no revisions in its history';
  const numbers = history.map((entry) => entry.revision).join(', ');
  if (requested !== undefined) {
    const to = history.find((entry) => entry.revision === requested);
    if (!to) return `revision ${requested} is not in the history of the release (revisions: ${numbers})`;
    if (to === from) return `revision ${requested} is the newest revision already (revisions: ${numbers})`;
    return { from, to };
  }
  const already = rolledBackTo(from);
  if (already !== undefined)
    return `the release is already rolled back to ${already} at revision ${from.revision}; name a revision to go elsewhere (revisions: ${numbers})`;
  const rejected = rejectedByRollbacks(history);
  const to = history
    .slice(0, -1)
    .findLast((entry) => GOOD_STATUSES.has(entry.status) && !rejected.has(entry.revision));
  if (!to) return `no revision before ${from.revision} ran well to roll back to (revisions: ${numbers})`;
  return { from, to };
}

/** "revision 3 (cilium-1.20.1, deployed)" */
export function describeRevision(entry: HelmRevision): string {
  return `revision ${entry.revision} (${entry.chart}, ${entry.status})`;
}
