import { formatDuration, parseDuration } from '../../src/config/parse-duration.js';
import type { SshdLab } from '../lab/sshd.js';
import { type FleetConfigParts, fleetClustersConfig } from './fleet-config.js';
import {
  DEV_ADDRESSES,
  type DevNode,
  HOME_EXIT_IP,
  PROD_ADDRESSES,
  type ProdNode,
  TOFU_RESOURCE,
} from './lab-names.js';
import { labMs } from './lab-time.js';

/**
 * Waits on kube-sim and the lab's nodes are seconds, not production's minutes, so a gate or a drain
 * that goes wrong fails fast; a real playbook or node command keeps minutes, as a 2-core machine
 * shared with other test files can take them.
 */
export const LAB_TIMEOUTS: Readonly<Record<string, string>> = {
  playbook: '10m',
  gate: '5s',
  agentReady: '5s',
  drain: '10s',
  sshWait: '20s',
  nodeCommand: '2m',
};

export interface LabConfigParts {
  readonly ops: SshdLab;
  readonly nodes: SshdLab;
  readonly repoRoot: string;
  readonly devKubeconfigPath: string;
  readonly prodKubeconfigPath: string;
  /** The known_hosts the playbooks' SSH reads on the ops host (ops.ansibleKnownHostsPath). */
  readonly opsKnownHostsPath: string;
  /** Dev cluster keys over the lab's (e.g. verifyEvery, approvalTimeout). */
  readonly dev?: Readonly<Record<string, unknown>>;
  /**
   * Cluster timeouts as config durations ("3s"), over LAB_TIMEOUTS, for both clusters; each is
   * stretched by the lab's time scale (labDuration).
   */
  readonly timeouts?: Readonly<Record<string, string>>;
  /** A dev node at another address than the one its sshd answers on (e.g. one nothing listens on). */
  readonly devAddresses?: Readonly<Partial<Record<DevNode, string>>>;
  readonly prodAddresses?: Readonly<Partial<Record<ProdNode, string>>>;
  /** Prod's node login when not root (the lab's password-sudo user). */
  readonly prodUser?: string | undefined;
  /** Prod's vault password file on the ops host, when its vault is encrypted. */
  readonly prodVaultPasswordFile?: string | undefined;
  /** Clusters of a lab fleet beside dev and prod. */
  readonly fleet?: FleetConfigParts;
}

/**
 * The world config of the lab, as `config/example.yaml` describes the operators' world (the same
 * people, rules and roles; every dev node a tofu VM, prod bare metal) with loopback addresses.
 */
export function labConfig(parts: LabConfigParts): Record<string, unknown> {
  const { ops, nodes } = parts;
  const nodeSsh = nodeSshOf(nodes);
  const timeouts = Object.fromEntries(
    Object.entries({ ...LAB_TIMEOUTS, ...parts.timeouts }).map(([key, text]) => [key, labDuration(text)]),
  );
  const prod = { ...PROD_ADDRESSES, ...parts.prodAddresses };
  const dev = { ...DEV_ADDRESSES, ...parts.devAddresses };
  const devNode = (name: DevNode, roles: string[]) => ({
    address: dev[name],
    roles,
    tofuResource: TOFU_RESOURCE(name),
  });
  return {
    slack: { alertsChannel: 'C0ALERTS', commandChannels: ['C0OPS'] },
    access: { operators: ['U0ALICE', 'U0BOB', 'S0PLATFORM'] },
    ops: {
      host: '127.0.0.1',
      port: ops.port,
      user: ops.user,
      privateKeyPath: ops.clientKeyPath,
      knownHostsPath: ops.knownHostsPath,
      ansibleKnownHostsPath: parts.opsKnownHostsPath,
      repoPath: parts.repoRoot,
    },
    clusters: {
      dev: {
        kubeconfigPath: parts.devKubeconfigPath,
        approvers: ['U0ALICE', 'U0BOB'],
        requiredApprovals: 1,
        allowSelfApproval: true,
        approvalTimeout: '30m',
        // The lab's bots start and stop within a test: no drift watch unless a test turns it on.
        driftEvery: 'off',
        nodeSsh,
        homeExitIps: [HOME_EXIT_IP],
        timeouts,
        nodes: {
          'k3s-dev-1': devNode('k3s-dev-1', ['server', 'primary']),
          'k3s-dev-2': devNode('k3s-dev-2', ['server']),
          'k3s-dev-3': devNode('k3s-dev-3', ['server', 'vpn-egress-gateway']),
        },
        ...parts.dev,
      },
      prod: {
        kubeconfigPath: parts.prodKubeconfigPath,
        approvers: ['U0ALICE', 'U0BOB', 'U0CAROL'],
        requiredApprovals: 2,
        allowSelfApproval: false,
        driftEvery: 'off',
        extraVars: {
          k3s_hosts: 'k3s_prod',
          k3s_primary_hosts: 'k3s_prod_primary',
          k3s_secondary_hosts: 'k3s_prod_secondary',
        },
        nodeSsh: parts.prodUser ? { ...nodeSsh, user: parts.prodUser } : nodeSsh,
        ...(parts.prodVaultPasswordFile && { vaultPasswordFile: parts.prodVaultPasswordFile }),
        timeouts,
        nodes: {
          'k3s-prod-1': { address: prod['k3s-prod-1'], roles: ['server', 'primary'] },
          'k3s-prod-2': { address: prod['k3s-prod-2'], roles: ['server'] },
          'k3s-prod-3': { address: prod['k3s-prod-3'], roles: ['server'] },
        },
      },
      ...(parts.fleet && fleetClustersConfig(parts.fleet, { nodeSsh: nodeSshOf, timeouts })),
    },
  };
}

/** How the bot reaches nodes served by this sshd. */
function nodeSshOf(nodes: SshdLab) {
  return {
    user: nodes.user,
    port: nodes.port,
    privateKeyPath: nodes.clientKeyPath,
    knownHostsPath: nodes.knownHostsPath,
  };
}

/** A lab config duration ("3s") stretched by the lab's time scale, as the bot will print it. */
export function labDuration(text: string): string {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`not a duration: ${text}`);
  return formatDuration(labMs(ms));
}
