import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDuration } from './parse-duration.js';

// Names that end up as ansible-playbook arguments: the schema is the first line of defence, so they
// are kept to characters that need no quoting anywhere.
const NODE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const CLUSTER_NAME = /^[a-z][a-z0-9-]{0,30}$/;
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// Ansible pattern words: `--limit all` (or `ungrouped`, `localhost`) would target far more than one
// node, so such a name is refused even though it passes NODE_NAME. (NODE_NAME already keeps out the
// pattern characters `* ! & : , [ ] ~ ?`.)
const ANSIBLE_PATTERN_WORDS = ['all', 'ungrouped', 'localhost'];
const ANSIBLE_VAR = /^[a-z_][a-z0-9_]*$/;
const ANSIBLE_VALUE = /^[A-Za-z0-9_.,:/@+-]+$/;
// Role-level vars the repo answers per cluster in group_vars: an extra var would win over the repo in
// every play, while the bot's own checks read the repo, so the two would describe different clusters.
const REPO_ANSWERED_VARS = [
  'k3s_primary_group',
  'k3s_servers_group',
  'k3s_api_host',
  'kube_vip_address',
  'cluster_kubeconfig_name',
];
export const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;
const SLACK_USER_OR_GROUP = /^[UWS][A-Z0-9]{2,}$/;
const SLACK_CHANNEL = /^[CGD][A-Z0-9]{2,}$/;

const address = z
  .string({ error: 'expected an IP or host name' })
  .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), 'expected an IP or host name');
const ipAddress = z.string().refine((value) => isIP(value) !== 0, 'expected an IP address');
const port = z.number({ error: 'expected a port number' }).int().min(1).max(65_535);
const path = z.string({ error: 'expected a file path' }).min(1, 'expected a file path');
const duration = z.string({ error: 'expected a duration such as 90s, 30m or 1h' }).transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined || ms === 0) {
    ctx.addIssue({ code: 'custom', message: 'expected a duration such as 90s, 30m or 1h' });
    return z.NEVER;
  }
  return ms;
});
const userOrGroup = z
  .string()
  .regex(SLACK_USER_OR_GROUP, 'expected a Slack user id (U…/W…) or user group id (S…)');
const channelId = z.string().regex(SLACK_CHANNEL, 'expected a Slack channel id (C…)');
const operators = z.array(userOrGroup).min(1, 'expected at least one operator');

export const NODE_ROLES = ['server', 'agent', 'primary', 'vpn-egress-gateway'] as const;

const nodeSchema = z.strictObject({
  address,
  roles: z.array(z.enum(NODE_ROLES)).min(1, 'expected at least one role'),
  /** The tofu resource address that rebuilds this node (`tofu apply -replace=<it>`); no rebuild when absent. */
  tofuResource: z
    .string()
    .regex(
      /^[A-Za-z0-9_.[\]"-]+$/,
      'expected a tofu resource address such as proxmox_vm_qemu.node["k3s-dev-3"]',
    )
    .optional(),
});

const nodeSshSchema = z.strictObject({
  user: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]*$/, 'expected a user name')
    .optional(),
  port: port.default(22),
  privateKeyPath: path.optional(),
  knownHostsPath: path.optional(),
});

const timeoutsSchema = z.strictObject({
  playbook: duration.prefault('60m'),
  gate: duration.prefault('5m'),
  agentReady: duration.prefault('5m'),
  drain: duration.prefault('10m'),
  sshWait: duration.prefault('15m'),
  nodeCommand: duration.prefault('2m'),
  /** A restore's `k3s server --cluster-reset`: k3s starts etcd, restores the snapshot and exits; a large one takes minutes. */
  clusterReset: duration.prefault('30m'),
});

const clusterSchema = z
  .strictObject({
    /**
     * Every mutating step is approved, the prod rules apply (extra vars, an odd number of servers of
     * at least 3 in hosts.ini, the vault). Default: true for a cluster named `prod`.
     */
    production: z.boolean().optional(),
    kubeconfigPath: path,
    /** Who may run commands on this cluster; absent: access.operators. */
    operators: operators.optional(),
    /** Where its commands are accepted; absent: slack.commandChannels. */
    commandChannels: z.array(channelId).optional(),
    approvers: z.array(userOrGroup).default([]),
    requiredApprovals: z.number().int().min(1).default(1),
    // A careful default: someone else looks at a disruptive step unless the cluster says otherwise.
    allowSelfApproval: z.boolean().default(false),
    /** How approvers learn a request waits: named in the thread (`mention`), a direct message each (`dm`), or both. */
    notifyApprovers: z
      .enum(['mention', 'dm', 'both'], { error: 'expected mention, dm or both' })
      .default('mention'),
    approvalTimeout: duration.prefault('30m'),
    verifyEvery: duration.optional(),
    /** The scheduled Cilium drift watch (`off` to have none). */
    driftEvery: z.union([z.literal('off'), duration]).prefault('1h'),
    /** A scheduled verify repeats an alert for a gate that stays failing at most this often. */
    verifyAlertRepeat: duration.prefault('1h'),
    /** The backup gate fails when no server has an etcd snapshot younger than this (k3s takes one every 12 h). */
    snapshotMaxAge: duration.prefault('24h'),
    extraVars: z
      .record(
        z.string().regex(ANSIBLE_VAR, 'expected an Ansible variable name'),
        z.string().regex(ANSIBLE_VALUE, 'expected a plain value (letters, digits, _ . , : / @ + -)'),
      )
      .default({}),
    nodeSsh: nodeSshSchema.prefault({}),
    /**
     * The vault password file on the ops host, as Ansible is pointed at it there: the cluster's plays
     * decrypt its group_vars vault with it. The bot passes the path, never reads the file.
     */
    vaultPasswordFile: z
      .string()
      .regex(/^\/[A-Za-z0-9_./@+-]+$/, 'expected an absolute path on the ops host')
      .optional(),
    /** The home ISP's public addresses: the VPN gateway's tun0 exit IP must be none of them (required with a gateway). */
    homeExitIps: z.array(ipAddress).default([]),
    timeouts: timeoutsSchema.prefault({}),
    nodes: z
      .record(
        z
          .string()
          .regex(NODE_NAME, 'expected a node name (lower-case letters, digits, dashes)')
          .refine(
            (name) => !ANSIBLE_PATTERN_WORDS.includes(name),
            `is an Ansible host pattern word (${ANSIBLE_PATTERN_WORDS.join(', ')}): a --limit on it would not mean one node`,
          ),
        nodeSchema,
      )
      .refine((nodes) => Object.keys(nodes).length > 0, 'expected at least one node'),
  })
  .superRefine((cluster, ctx) => {
    for (const name of Object.keys(cluster.extraVars).filter((key) => REPO_ANSWERED_VARS.includes(key))) {
      ctx.addIssue({
        code: 'custom',
        path: ['extraVars', name],
        message: `${name} is the repo's to answer (group_vars of the cluster's group): as an extra var it would override the repo in every play while the bot's checks read the repo; remove it here`,
      });
    }
    // The founder is the inventory's to say; a config that names one is checked against it at run time.
    const primaries = Object.keys(cluster.nodes).filter((name) =>
      cluster.nodes[name]!.roles.includes('primary'),
    );
    if (primaries.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['nodes'],
        message: `expected at most one node with the primary role, found ${primaries.length} (${primaries.join(', ')})`,
      });
    }
    const gateway = Object.keys(cluster.nodes).find((name) =>
      cluster.nodes[name]!.roles.includes('vpn-egress-gateway'),
    );
    if (gateway && cluster.homeExitIps.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['homeExitIps'],
        message: `required with a vpn-egress-gateway node (${gateway}): the VPN check compares its tun0 exit with the home ISP's public addresses`,
      });
    }
    const onlyUsers = cluster.approvers.every((id) => SLACK_USER.test(id));
    if (onlyUsers && cluster.approvers.length < cluster.requiredApprovals) {
      ctx.addIssue({
        code: 'custom',
        path: ['requiredApprovals'],
        message: `needs ${cluster.requiredApprovals} distinct approvers but only ${cluster.approvers.length} listed`,
      });
    }
  });

export const worldSchema = z
  .strictObject({
    slack: z.strictObject({
      alertsChannel: channelId,
      commandChannels: z.array(channelId).default([]),
    }),
    access: z.strictObject({ operators }),
    ops: z.strictObject({
      host: address,
      port: port.default(22),
      user: z.string().regex(/^[a-z_][a-z0-9_-]*$/, 'expected a user name'),
      privateKeyPath: path,
      knownHostsPath: path,
      /**
       * The known_hosts the playbooks' own SSH reads on the ops host (its user's ~/.ssh/known_hosts when
       * absent): the bot rewrites a rebuilt node's entry there once a person accepted the new key.
       */
      ansibleKnownHostsPath: z
        .string()
        .regex(/^\/[^\0]*$/, 'expected an absolute path')
        .optional(),
      repoPath: z.string().regex(/^\/[^\0]*$/, 'expected an absolute path'),
    }),
    clusters: z
      .record(
        z.string().regex(CLUSTER_NAME, 'expected a cluster name (lower-case letters, digits, dashes)'),
        clusterSchema,
      )
      .refine((clusters) => Object.keys(clusters).length > 0, 'expected at least one cluster'),
  })
  .superRefine((world, ctx) => {
    for (const [clusterName, cluster] of Object.entries(world.clusters)) {
      if (!(cluster.production ?? clusterName === 'prod')) continue;
      for (const problem of productionConfigProblems(cluster)) {
        ctx.addIssue({
          code: 'custom',
          path: ['clusters', clusterName, ...problem.path],
          message: problem.message,
        });
      }
    }
    const owner = new Map<string, string>();
    for (const [clusterName, cluster] of Object.entries(world.clusters)) {
      for (const nodeName of Object.keys(cluster.nodes)) {
        const other = owner.get(nodeName);
        if (other !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['clusters', clusterName, 'nodes', nodeName],
            message: `node name already used by cluster ${other}: node names must be unique`,
          });
        }
        owner.set(nodeName, clusterName);
      }
    }
  });
type ParsedWorld = z.output<typeof worldSchema>;
export type NodeRole = (typeof NODE_ROLES)[number];
export type ClusterTimeouts = ParsedWorld['clusters'][string]['timeouts'];

/** Prod runs dev's playbooks with scoped overrides, never forked ones: without them it would target dev. */
const PRODUCTION_EXTRA_VARS = ['k3s_hosts', 'k3s_primary_hosts', 'k3s_secondary_hosts'] as const;

function productionConfigProblems(cluster: {
  extraVars: Record<string, string>;
  nodes: Record<string, { roles: readonly string[] }>;
}): { path: string[]; message: string }[] {
  const problems = PRODUCTION_EXTRA_VARS.filter((name) => !cluster.extraVars[name]).map((name) => ({
    path: ['extraVars', name],
    message: 'required on a production cluster (its playbooks would otherwise target the dev groups)',
  }));
  const gateway = Object.keys(cluster.nodes).find((name) =>
    cluster.nodes[name]!.roles.includes('vpn-egress-gateway'),
  );
  if (gateway && !cluster.extraVars.vpn_egress_gateway_hosts) {
    problems.push({
      path: ['nodes', gateway, 'roles'],
      message:
        'a production cluster runs no VPN gateway play until it has its own egress group: set extraVars.vpn_egress_gateway_hosts to that group, or drop the role',
    });
  }
  return problems;
}
