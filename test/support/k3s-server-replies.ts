import { K3S_CONFIG_PATH } from '../../src/lifecycle/gates/k3s-kube-proxy-setting.js';
import type { ScriptedReply, ShellCall } from './scripted-shell.js';

/** What the runbook's k3s role leaves on a server: kube-proxy disabled in the config file. */
export const K3S_SERVER_CONFIG = ['flannel-backend: none', 'disable-kube-proxy: true', 'cluster-init: true'];
export const K3S_EXEC_START =
  '{ path=/usr/local/bin/k3s ; argv[]=/usr/local/bin/k3s server ; ignore_errors=no }';

/** Answers a k3s server's config reads (file and unit) and snapshot list as a node set up by the runbook; undefined for anything else. */
export function answerK3sServer(
  call: Pick<ShellCall, 'argv' | 'target'>,
  config = K3S_SERVER_CONFIG,
  snapshotAt = SCHEDULED_SNAPSHOT_AT,
): ScriptedReply | undefined {
  if (call.argv.at(-1) === K3S_CONFIG_PATH && call.argv.includes('cat')) return { stdout: config };
  if (call.argv[0] === 'systemctl' && call.argv[1] === 'show') return { stdout: [K3S_EXEC_START] };
  return answerK3sSnapshots(call, snapshotAt);
}

/** The instant clock's start (test/support/manual-clock.ts), less an hour: k3s's last scheduled snapshot. */
export const SCHEDULED_SNAPSHOT_AT = 1_700_000_000_000 - 3_600_000;

/** `k3s etcd-snapshot ls` as k3s prints it (tabwriter), one row per [name, created epoch ms]. */
export function k3sSnapshotTable(rows: readonly (readonly [string, number])[]): string[] {
  return [
    'Name Location Size Created',
    ...rows.map(
      ([name, at]) =>
        `${name} file:///var/lib/rancher/k3s/server/db/snapshots/${name} 3616800 ${new Date(at).toISOString().replace('.000', '')}`,
    ),
  ];
}

/** A server's snapshot list as k3s keeps it by default: its last scheduled one (an hour before the instant clock starts). */
export function answerK3sSnapshots(
  call: Pick<ShellCall, 'argv' | 'target'>,
  at = SCHEDULED_SNAPSHOT_AT,
): ScriptedReply | undefined {
  if (!(call.argv.includes('etcd-snapshot') && call.argv.at(-1) === 'ls')) return undefined;
  return { stdout: k3sSnapshotTable([[`etcd-snapshot-${call.target}-${Math.floor(at / 1000)}`, at]]) };
}
