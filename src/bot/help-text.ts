export const HELP_TEXT = [
  '*/cluster* runs the life of the k3s clusters. Commands:',
  '• `up <cluster>`: bring-up (baseline → k3s → cilium → verify → flux, then kube-vip and the VPN gateway)',
  '• `reprovision <node> [--primary]`: take a node out, rebuild it, re-join it',
  '• `cilium <cluster>`: preflight, approved Cilium rollout watched agent by agent, verify',
  '• `verify <cluster>`: the verify gates only',
  '• `packages <node>`: packages-only node baseline',
  '• `plan <command…>`: print the steps of any command above, run nothing',
  '• `help`: this text',
  'Steps marked ⚠ stop for approval first.',
].join('\n');
