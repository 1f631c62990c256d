import { listHostsOutput } from './list-hosts-output.js';
import type { ScriptedReply, ShellCall } from './scripted-shell.js';

/**
 * A healthy homelab as far as these jobs look: each k3s server runs without kube-proxy, and
 * ansible names k3s-prod-1 in the packages play. Anything else succeeds, printing nothing.
 */
export const healthyHosts = (call: ShellCall): ScriptedReply | undefined => {
  if (call.argv.includes('/etc/rancher/k3s/config.yaml')) return { stdout: ['disable-kube-proxy: true'] };
  if (call.argv.includes('--list-hosts'))
    return {
      stdout: listHostsOutput('node-baseline.yml', [
        { pattern: 'k3s_prod', name: 'node baseline', hosts: ['k3s-prod-1'] },
      ]),
    };
  return undefined;
};
