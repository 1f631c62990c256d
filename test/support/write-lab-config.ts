import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface LabConfigOptions {
  readonly dir: string;
  readonly kubeconfigPath: string;
  readonly ops?: {
    host: string;
    port: number;
    user: string;
    privateKeyPath: string;
    knownHostsPath: string;
    repoPath: string;
  };
  readonly nodeAddresses?: readonly string[];
  readonly timeouts?: Record<string, string>;
  readonly cluster?: Record<string, unknown>;
  /** Extra clusters (e.g. prod) beside dev. */
  readonly clusters?: Record<string, unknown>;
  readonly nodeSshPort?: number;
}

/** A world config for the lab: the dev cluster on loopback addresses only. */
export async function writeLabConfig(options: LabConfigOptions): Promise<string> {
  const addresses = options.nodeAddresses ?? ['127.0.0.11', '127.0.0.12', '127.0.0.13'];
  const ops = options.ops ?? {
    host: '127.0.0.1',
    port: 22,
    user: 'ops',
    privateKeyPath: join(options.dir, 'absent-key'),
    knownHostsPath: join(options.dir, 'absent-known-hosts'),
    repoPath: join(options.dir, 'repo'),
  };
  const config = {
    slack: { alertsChannel: 'C0ALERTS', commandChannels: ['C0OPS'] },
    access: { operators: ['U0ALICE', 'U0BOB', 'S0PLATFORM'] },
    ops,
    clusters: {
      dev: {
        kubeconfigPath: options.kubeconfigPath,
        approvers: ['U0ALICE', 'U0BOB'],
        requiredApprovals: 1,
        allowSelfApproval: true,
        approvalTimeout: '30m',
        timeouts: { gate: '3s', agentReady: '5s', ...options.timeouts },
        ...(options.nodeSshPort ? { nodeSsh: { port: options.nodeSshPort } } : {}),
        homeExitIps: ['198.51.100.20'],
        nodes: {
          'k3s-dev-1': { address: addresses[0], roles: ['server', 'primary'] },
          'k3s-dev-2': { address: addresses[1], roles: ['server'] },
          'k3s-dev-3': { address: addresses[2], roles: ['server', 'vpn-egress-gateway'] },
        },
        ...options.cluster,
      },
      ...options.clusters,
    },
  };
  const path = join(options.dir, 'cluster-bot.yaml');
  await writeFile(path, stringify(config));
  return path;
}
