/** One etcd snapshot as `k3s etcd-snapshot ls` lists it. */
export interface EtcdSnapshot {
  readonly name: string;
  readonly location: string;
  readonly sizeBytes: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

const HEADER = /^Name\s+Location\s+Size\s+Created\s*$/;
const ROW = /^(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s*$/;

/**
 * The table `k3s etcd-snapshot ls` prints (Go's tabwriter: Name, Location, Size, Created in
 * RFC 3339), from its output lines; k3s's own log lines (logrus `time="…" level=…`) and anything
 * before the header are skipped. Undefined when the header never came: not a snapshot list.
 */
export function parseSnapshotList(lines: readonly string[]): EtcdSnapshot[] | undefined {
  const start = lines.findIndex((line) => HEADER.test(line));
  if (start < 0) return undefined;
  return lines.slice(start + 1).flatMap((line) => {
    const row = ROW.exec(line);
    const createdAt = row ? Date.parse(row[4]!) : Number.NaN;
    if (!row || Number.isNaN(createdAt)) return [];
    return [{ name: row[1]!, location: row[2]!, sizeBytes: Number(row[3]), createdAt }];
  });
}
