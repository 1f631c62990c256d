import { K3S_CONFIG_PATH } from '../../src/lifecycle/gates/k3s-kube-proxy-setting.js';
import type { ScriptedReply, ShellCall } from './scripted-shell.js';

/** What the runbook's k3s role leaves on a server: kube-proxy disabled in the config file. */
export const K3S_SERVER_CONFIG = ['flannel-backend: none', 'disable-kube-proxy: true', 'cluster-init: true'];
export const K3S_EXEC_START =
  '{ path=/usr/local/bin/k3s ; argv[]=/usr/local/bin/k3s server ; ignore_errors=no }';

/** Answers a k3s server's config reads (file and unit) as a node set up by the runbook; undefined for anything else. */
export function answerK3sServer(
  call: Pick<ShellCall, 'argv'>,
  config = K3S_SERVER_CONFIG,
): ScriptedReply | undefined {
  if (call.argv.at(-1) === K3S_CONFIG_PATH && call.argv.includes('cat')) return { stdout: config };
  if (call.argv[0] === 'systemctl' && call.argv[1] === 'show') return { stdout: [K3S_EXEC_START] };
  return undefined;
}
