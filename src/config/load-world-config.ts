import { readFile as readFileFromDisk } from 'node:fs/promises';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { ClusterBotError } from '../errors.js';
import type { ClusterConfig, WorldConfig } from './world-config.js';
import { worldSchema } from './world-schema.js';

export type ReadTextFile = (path: string) => Promise<string>;

const readUtf8: ReadTextFile = (path) => readFileFromDisk(path, 'utf8');

/** Reads and validates the world YAML; a bad file fails with every problem named by key. */
export async function loadWorldConfig(path: string, readFile: ReadTextFile = readUtf8): Promise<WorldConfig> {
  let text: string;
  try {
    text = await readFile(path);
  } catch (cause) {
    throw new ClusterBotError('CONFIG_INVALID', `${path}: cannot read the config file`, {
      cause,
      details: { problems: [`${path}: cannot read the config file (${(cause as Error).message})`] },
    });
  }
  return parseWorldConfig(text, path);
}

export function parseWorldConfig(text: string, source = 'config'): WorldConfig {
  let document: unknown;
  try {
    document = parseYaml(text, { uniqueKeys: true });
  } catch (cause) {
    const where = cause instanceof YAMLParseError ? ` at line ${cause.linePos?.[0].line ?? '?'}` : '';
    const problem = `${source}: not valid YAML${where}: ${(cause as Error).message.split('\n')[0]}`;
    throw new ClusterBotError('CONFIG_INVALID', problem, { cause, details: { problems: [problem] } });
  }
  const parsed = worldSchema.safeParse(document ?? {});
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues);
    throw new ClusterBotError('CONFIG_INVALID', `${source} is invalid:\n${problems.join('\n')}`, {
      details: { problems },
    });
  }
  return toWorldConfig(parsed.data);
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `${at ? `${at}.` : ''}${key}: unknown key`);
    }
    if (issue.code === 'invalid_key') {
      return [`${at}: ${issue.issues.map((inner) => inner.message).join('; ')}`];
    }
    if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
      return [`${at}: required`];
    }
    return [`${at || '(top level)'}: ${issue.message}`];
  });
}

function toWorldConfig(world: z.output<typeof worldSchema>): WorldConfig {
  const clusters: Record<string, ClusterConfig> = {};
  for (const [name, cluster] of Object.entries(world.clusters)) {
    clusters[name] = {
      name,
      production: cluster.production ?? name === 'prod',
      kubeconfigPath: cluster.kubeconfigPath,
      operators: cluster.operators ?? world.access.operators,
      commandChannels: cluster.commandChannels ?? world.slack.commandChannels,
      approvers: cluster.approvers,
      requiredApprovals: cluster.requiredApprovals,
      allowSelfApproval: cluster.allowSelfApproval,
      notifyApprovers: cluster.notifyApprovers,
      approvalTimeoutMs: cluster.approvalTimeout,
      verifyEveryMs: cluster.verifyEvery,
      driftEveryMs: cluster.driftEvery === 'off' ? undefined : cluster.driftEvery,
      verifyAlertRepeatMs: cluster.verifyAlertRepeat,
      snapshotMaxAgeMs: cluster.snapshotMaxAge,
      extraVars: cluster.extraVars,
      nodeSsh: {
        user: cluster.nodeSsh.user ?? world.ops.user,
        port: cluster.nodeSsh.port,
        privateKeyPath: cluster.nodeSsh.privateKeyPath ?? world.ops.privateKeyPath,
        knownHostsPath: cluster.nodeSsh.knownHostsPath ?? world.ops.knownHostsPath,
      },
      vaultPasswordFile: cluster.vaultPasswordFile,
      homeExitIps: cluster.homeExitIps,
      timeouts: cluster.timeouts,
      nodes: Object.entries(cluster.nodes).map(([nodeName, node]) => ({
        name: nodeName,
        cluster: name,
        address: node.address,
        roles: node.roles,
        tofuResource: node.tofuResource,
      })),
    };
  }
  return { slack: world.slack, access: world.access, ops: world.ops, clusters };
}
