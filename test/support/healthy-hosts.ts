import { readFileSync } from 'node:fs';
import { listHostsOutput } from './list-hosts-output.js';
import type { ScriptedReply, ShellCall } from './scripted-shell.js';

/** The lab repo's group_vars, as the example config's ops host serves them (what names each cluster's kubeconfig). */
const LAB_GROUP_VARS = ['group_vars/all.yml', 'group_vars/k3s_prod/vars.yml'];
const readLabFile = (path: string) =>
  readFileSync(new URL(`../lab/infra-repo/infra/ansible/${path}`, import.meta.url), 'utf8');

/**
 * A healthy homelab as far as these jobs look: each k3s server runs without kube-proxy, ansible
 * names k3s-prod-1 in the packages play, group_vars are the lab repo's, and prod's vault decrypts with a become password (what
 * ansible's debug module prints for the vault check). Anything else succeeds, printing nothing.
 */
export const healthyHosts = (call: ShellCall): ScriptedReply | undefined => {
  const groupVars =
    call.argv[0] === 'cat' ? LAB_GROUP_VARS.find((file) => call.argv.at(-1)?.endsWith(file)) : undefined;
  if (groupVars) return { stdout: readLabFile(groupVars).split('\n') };
  if (call.argv.includes('/etc/rancher/k3s/config.yaml')) return { stdout: ['disable-kube-proxy: true'] };
  if (call.argv.includes('etcd-snapshot') && call.argv.includes('ls'))
    return { stdout: snapshotTakenAnHourAgo() };
  if (call.argv.includes('--list-hosts'))
    return {
      stdout: listHostsOutput('node-baseline.yml', [
        { pattern: 'k3s_prod', name: 'node baseline', hosts: ['k3s-prod-1'] },
      ]),
    };
  if (call.argv[0] === 'ansible' && call.argv.some((word) => word.includes('ansible_become_password')))
    return { stdout: hostsAsked(call).flatMap((host) => [`${host} | SUCCESS => {`, '    "msg": true', '}']) };
  return undefined;
};

/** `k3s etcd-snapshot ls` as k3s prints it, its one snapshot taken an hour ago: the backup gate passes. */
function snapshotTakenAnHourAgo(): string[] {
  const at = Math.floor(Date.now() / 1_000) - 3_600;
  const name = `etcd-snapshot-k3s-dev-1-${at}`;
  return [
    'Name                               Location                                                                           Size    Created',
    `${name} file:///var/lib/rancher/k3s/server/db/snapshots/${name} 3616800 ${new Date(at * 1_000).toISOString().replace('.000', '')}`,
  ];
}

/** The hosts of `ansible -i <inventory> <host,host…> …`. */
function hostsAsked(call: ShellCall): string[] {
  return call.argv[call.argv.indexOf('-i') + 2]?.split(',') ?? [];
}
