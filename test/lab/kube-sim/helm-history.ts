import { stableStringify } from './stable-stringify.js';

/** One entry of `helm history -o json` (helm's releaseInfo: these six fields, in this order). */
export interface HelmHistoryEntry {
  readonly revision: number;
  /** RFC 3339 with nanoseconds, as helm's time type marshals. */
  readonly updated: string;
  readonly status: 'deployed' | 'superseded' | 'failed';
  /** `<chart>-<version>` */
  readonly chart: string;
  readonly app_version: string;
  readonly description: string;
}

/** What a revision installed: the history entry, its user-supplied values and the agent template it rendered. */
interface Revision {
  entry: HelmHistoryEntry;
  readonly values: Record<string, unknown>;
  /** The cilium-configmap checksum the revision's agent template carries. */
  readonly checksum: string;
  readonly version: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The Helm release `cilium` in kube-system, as helm keeps it (a Secret per revision on a real
 * cluster): install, upgrade, rollback. A revision's template is known by its checksum annotation,
 * so rolling back sets the DaemonSet's template back to that revision's.
 */
export class HelmHistory {
  readonly #revisions: Revision[] = [];

  /**
   * Seeds a settled release: an install (before the maxUnavailable commit: its values leave
   * updateStrategy to the chart default 2), then an upgrade that rendered the current template.
   */
  constructor(
    current: { checksum: string; version: string; values: Record<string, unknown> },
    installed: { checksum: string; version: string },
    bornAt: Date,
  ) {
    const { updateStrategy: _notYet, ...installedValues } = current.values;
    this.#push(installed.version, installed.checksum, installedValues, 'Install complete', bornAt);
    const upgradedAt = new Date(bornAt.getTime() + 2 * DAY_MS);
    this.#push(current.version, current.checksum, current.values, 'Upgrade complete', upgradedAt);
  }

  history(): HelmHistoryEntry[] {
    return this.#revisions.map((revision) => revision.entry);
  }

  /** The deployed revision's user-supplied values (`helm get values -o json`), or `revision`'s (`--revision N`). */
  values(): Record<string, unknown>;
  values(revision: number | undefined): Record<string, unknown> | undefined;
  values(revision?: number): Record<string, unknown> | undefined {
    if (revision === undefined) return structuredClone(this.#deployed().values);
    const found = this.#revisions.find((candidate) => candidate.entry.revision === revision);
    return found && structuredClone(found.values);
  }

  upgrade(version: string, checksum: string, values: Record<string, unknown>, at: Date): void {
    this.#push(version, checksum, values, 'Upgrade complete', at);
  }

  /** A new revision copying `revision`'s chart, values and template; undefined when there is no such revision. */
  rollback(revision: number, at: Date): { checksum: string } | undefined {
    const target = this.#revisions.find((candidate) => candidate.entry.revision === revision);
    if (!target) return undefined;
    this.#push(target.version, target.checksum, target.values, `Rollback to ${revision}`, at);
    return { checksum: target.checksum };
  }

  /** Someone changed the live values by hand (`helm upgrade --reuse-values --set ...`): same chart and template. */
  setValues(values: Record<string, unknown>, at: Date): void {
    const deployed = this.#deployed();
    this.#push(deployed.version, deployed.checksum, values, 'Upgrade complete', at);
  }

  /** The template of the deployed revision, to compare a DaemonSet against. */
  deployedChecksum(): string {
    return this.#deployed().checksum;
  }

  #deployed(): Revision {
    const deployed = this.#revisions.findLast((revision) => revision.entry.status === 'deployed');
    if (!deployed) throw new Error('kube-sim: the cilium release has no deployed revision');
    return deployed;
  }

  #push(
    version: string,
    checksum: string,
    values: Record<string, unknown>,
    description: string,
    at: Date,
  ): void {
    for (const revision of this.#revisions) {
      if (revision.entry.status === 'deployed') revision.entry = { ...revision.entry, status: 'superseded' };
    }
    this.#revisions.push({
      entry: {
        revision: this.#revisions.length + 1,
        updated: helmTime(at),
        status: 'deployed',
        chart: `cilium-${version}`,
        app_version: version,
        description,
      },
      values: JSON.parse(stableStringify(values)) as Record<string, unknown>,
      checksum,
      version,
    });
  }
}

/** Go's RFC3339Nano as helm prints it: nanoseconds and a numeric offset. */
function helmTime(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000000+00:00`;
}
