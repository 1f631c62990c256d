import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadWorldConfig, parseWorldConfig } from '../../src/config/load-world-config.js';
import { isClusterBotError } from '../../src/errors.js';

const examplePath = new URL('../../config/example.yaml', import.meta.url).pathname;

// biome-ignore lint/suspicious/noExplicitAny: tests edit the parsed YAML freely, like a user would
async function exampleWith(edit: (doc: Record<string, any>) => void): Promise<string> {
  const doc = parse(await readFile(examplePath, 'utf8'));
  edit(doc);
  return stringify(doc);
}

function problemsOf(text: string): string[] {
  try {
    parseWorldConfig(text, 'test.yaml');
  } catch (error) {
    if (isClusterBotError(error, 'CONFIG_INVALID')) return error.details.problems as string[];
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('world config', () => {
  it('loads the shipped example with defaults applied', async () => {
    const world = await loadWorldConfig(examplePath);
    expect(Object.keys(world.clusters)).toEqual(['dev', 'prod']);
    const dev = world.clusters.dev!;
    expect(dev.nodes.map((n) => n.name)).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(dev.approvalTimeoutMs).toBe(30 * 60_000);
    expect(dev.verifyEveryMs).toBe(15 * 60_000);
    expect(dev.nodeSsh).toEqual({
      user: 'ops',
      port: 22,
      privateKeyPath: '/run/secrets/ssh/id_ed25519',
      knownHostsPath: '/run/secrets/ssh/known_hosts',
    });
    expect(dev.timeouts.playbook).toBe(60 * 60_000);
    const prod = world.clusters.prod!;
    expect(prod.requiredApprovals).toBe(2);
    expect(prod.allowSelfApproval).toBe(false);
    expect(prod.extraVars).toEqual({
      k3s_hosts: 'k3s_prod',
      k3s_primary_hosts: 'k3s_prod_primary',
      k3s_secondary_hosts: 'k3s_prod_secondary',
    });
  });

  it('each cluster has its own operators and command channels, by default the global ones', async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.prod.operators = ['U0BOB', 'S0PRODOPS'];
      doc.clusters.prod.commandChannels = ['C0PROD'];
    });
    const world = parseWorldConfig(text);
    expect(world.clusters.dev).toMatchObject({
      operators: ['U0ALICE', 'U0BOB', 'S0PLATFORM'],
      commandChannels: ['C0OPS'],
    });
    expect(world.clusters.prod).toMatchObject({
      operators: ['U0BOB', 'S0PRODOPS'],
      commandChannels: ['C0PROD'],
    });
    const bad = await exampleWith((doc) => {
      doc.clusters.prod.operators = [];
      doc.clusters.dev.commandChannels = ['#ops'];
    });
    expect(problemsOf(bad).sort()).toEqual([
      'clusters.dev.commandChannels.0: expected a Slack channel id (C…)',
      'clusters.prod.operators: expected at least one operator',
    ]);
  });

  it("a cluster's snapshotMaxAge is 24h by default, its own when set, and refused naming the key when not a duration", async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.prod.snapshotMaxAge = '13h';
    });
    const world = parseWorldConfig(text);
    expect(world.clusters.dev!.snapshotMaxAgeMs).toBe(24 * 3_600_000);
    expect(world.clusters.prod!.snapshotMaxAgeMs).toBe(13 * 3_600_000);
    const bad = await exampleWith((doc) => {
      doc.clusters.dev.snapshotMaxAge = 'a day';
    });
    expect(problemsOf(bad)).toEqual([
      'clusters.dev.snapshotMaxAge: expected a duration such as 90s, 30m or 1h',
    ]);
  });

  it('notifyApprovers defaults to mention; a word it does not know is refused by name', async () => {
    const world = parseWorldConfig(
      await exampleWith((doc) => {
        doc.clusters.prod.notifyApprovers = 'both';
      }),
    );
    expect(world.clusters.dev!.notifyApprovers).toBe('mention');
    expect(world.clusters.prod!.notifyApprovers).toBe('both');
    const problems = problemsOf(
      await exampleWith((doc) => {
        doc.clusters.prod.notifyApprovers = 'email';
      }),
    );
    expect(problems).toEqual(['clusters.prod.notifyApprovers: expected mention, dm or both']);
  });

  it('names the key and the reason for a bad address', async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.prod.nodes['k3s-prod-2'].address = 'not an address!';
    });
    expect(problemsOf(text)).toEqual(['clusters.prod.nodes.k3s-prod-2.address: expected an IP or host name']);
  });

  it('refuses unknown keys, naming each', async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.dev.aprovers = ['U0ALICE'];
      doc.slack.alertChannel = 'C0X';
    });
    expect(problemsOf(text).sort()).toEqual([
      'clusters.dev.aprovers: unknown key',
      'slack.alertChannel: unknown key',
    ]);
  });

  it('reports every problem at once: missing keys, bad durations, impossible approval rules', async () => {
    const text = await exampleWith((doc) => {
      delete doc.ops.repoPath;
      doc.clusters.dev.approvalTimeout = 'soon';
      doc.clusters.prod.approvers = ['U0ALICE'];
      doc.clusters.prod.nodes['k3s-prod-2'].roles = ['server', 'primary'];
    });
    expect(problemsOf(text).sort()).toEqual([
      'clusters.dev.approvalTimeout: expected a duration such as 90s, 30m or 1h',
      'clusters.prod.nodes: expected at most one node with the primary role, found 2 (k3s-prod-1, k3s-prod-2)',
      'clusters.prod.requiredApprovals: needs 2 distinct approvers but only 1 listed',
      'ops.repoPath: required',
    ]);
  });

  it('a production cluster needs the prod extra vars, and no VPN gateway without its own egress group', async () => {
    const text = await exampleWith((doc) => {
      delete doc.clusters.prod.extraVars.k3s_primary_hosts;
      doc.clusters.prod.nodes['k3s-prod-3'].roles = ['server', 'vpn-egress-gateway'];
      doc.clusters.dev.production = true;
      doc.clusters.dev.extraVars = { k3s_hosts: 'k3s_servers' };
    });
    expect(problemsOf(text).sort()).toEqual([
      'clusters.dev.extraVars.k3s_primary_hosts: required on a production cluster (its playbooks would otherwise target the dev groups)',
      'clusters.dev.extraVars.k3s_secondary_hosts: required on a production cluster (its playbooks would otherwise target the dev groups)',
      'clusters.dev.nodes.k3s-dev-3.roles: a production cluster runs no VPN gateway play until it has its own egress group: set extraVars.vpn_egress_gateway_hosts to that group, or drop the role',
      'clusters.prod.extraVars.k3s_primary_hosts: required on a production cluster (its playbooks would otherwise target the dev groups)',
      "clusters.prod.homeExitIps: required with a vpn-egress-gateway node (k3s-prod-3): the VPN check compares its tun0 exit with the home ISP's public addresses",
      'clusters.prod.nodes.k3s-prod-3.roles: a production cluster runs no VPN gateway play until it has its own egress group: set extraVars.vpn_egress_gateway_hosts to that group, or drop the role',
    ]);
  });

  it('a VPN gateway node needs the home ISP addresses to compare its tunnel exit with', async () => {
    const text = await exampleWith((doc) => {
      delete doc.clusters.dev.homeExitIps;
    });
    expect(problemsOf(text)).toEqual([
      "clusters.dev.homeExitIps: required with a vpn-egress-gateway node (k3s-dev-3): the VPN check compares its tun0 exit with the home ISP's public addresses",
    ]);
  });

  it('refuses extra vars that set what the repo answers in group_vars, naming each key', async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.prod.extraVars.k3s_api_host = '192.168.2.10';
      doc.clusters.prod.extraVars.cluster_kubeconfig_name = 'dev.kubeconfig';
      doc.clusters.dev.extraVars = { k3s_primary_group: 'k3s_primary', k3s_servers_group: 'k3s_servers' };
    });
    const why = (name: string) =>
      `${name} is the repo's to answer (group_vars of the cluster's group): as an extra var it would override the repo in every play while the bot's checks read the repo; remove it here`;
    expect(problemsOf(text).sort()).toEqual([
      `clusters.dev.extraVars.k3s_primary_group: ${why('k3s_primary_group')}`,
      `clusters.dev.extraVars.k3s_servers_group: ${why('k3s_servers_group')}`,
      `clusters.prod.extraVars.cluster_kubeconfig_name: ${why('cluster_kubeconfig_name')}`,
      `clusters.prod.extraVars.k3s_api_host: ${why('k3s_api_host')}`,
    ]);
  });

  it('production defaults to true for a cluster named prod only, and can be set either way', async () => {
    const world = parseWorldConfig(await exampleWith(() => undefined));
    expect(world.clusters.prod!.production).toBe(true);
    expect(world.clusters.dev!.production).toBe(false);
  });

  it('refuses a node name used by two clusters and extra vars that would need quoting', async () => {
    const text = await exampleWith((doc) => {
      doc.clusters.prod.nodes['k3s-dev-1'] = { address: '192.168.2.13', roles: ['server'] };
      doc.clusters.prod.extraVars.k3s_hosts = 'k3s_prod; rm -rf /';
    });
    expect(problemsOf(text).sort()).toEqual([
      'clusters.prod.extraVars.k3s_hosts: expected a plain value (letters, digits, _ . , : / @ + -)',
      'clusters.prod.nodes.k3s-dev-1: node name already used by cluster dev: node names must be unique',
    ]);
  });

  it('refuses a node named after an Ansible host pattern word or holding a pattern character, naming the key', async () => {
    const names = ['all', 'ungrouped', 'localhost', 'k3s*', '!k3s-dev-1', 'a&b', 'a:b', 'a,b', 'web[1]'];
    const text = await exampleWith((doc) => {
      for (const [i, name] of names.entries())
        doc.clusters.dev.nodes[name] = { address: `192.168.1.${60 + i}`, roles: ['server'] };
    });
    const problems = problemsOf(text);
    for (const word of ['all', 'ungrouped', 'localhost']) {
      expect(problems).toContain(
        `clusters.dev.nodes.${word}: is an Ansible host pattern word (all, ungrouped, localhost): a --limit on it would not mean one node`,
      );
    }
    for (const name of names.slice(3)) {
      expect(problems).toContain(
        `clusters.dev.nodes.${name}: expected a node name (lower-case letters, digits, dashes)`,
      );
    }
  });

  it('says where YAML itself is broken', () => {
    expect(problemsOf('slack: [unclosed')[0]).toMatch(/^test.yaml: not valid YAML at line 1/);
  });

  it('says when the file cannot be read', async () => {
    await expect(loadWorldConfig('/nonexistent/cluster-bot.yaml')).rejects.toThrow(
      '/nonexistent/cluster-bot.yaml: cannot read the config file',
    );
  });
});
