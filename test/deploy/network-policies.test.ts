import { describe, expect, it } from 'vitest';
import { parseWorldConfig } from '../../src/config/load-world-config.js';
import { findObject } from './find-object.js';
import { ipv4InCidr } from './ipv4-in-cidr.js';
import type { K8sObject, NetworkPolicy, NetworkPolicyRule, Workload } from './k8s-types.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';
import { selectorMatches } from './selector-matches.js';

const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
const policies = objects.filter((o): o is NetworkPolicy => o.kind === 'NetworkPolicy');
const labelsOf = (kind: string, name: string) =>
  findObject<Workload>(objects, kind, name).spec.template.metadata.labels;
const pods = {
  bot: labelsOf('Deployment', 'cluster-bot-bot'),
  worker: labelsOf('Deployment', 'cluster-bot-worker'),
  redis: labelsOf('StatefulSet', 'cluster-bot-redis'),
};

/** The policies that select a pod; a pod no policy selects accepts and sends anything. */
function policiesFor(labels: Record<string, string>): NetworkPolicy[] {
  return policies.filter((p) => selectorMatches(p.spec.podSelector, labels));
}

function portsOf(rules: readonly NetworkPolicyRule[] = []): number[] {
  return [...new Set(rules.flatMap((r) => (r.ports ?? []).map((p) => Number(p.port))))].sort((a, b) => a - b);
}

function egressRuleFor(policy: NetworkPolicy, port: number): NetworkPolicyRule | undefined {
  return policy.spec.egress?.find((rule) => rule.ports?.some((p) => Number(p.port) === port));
}

describe('NetworkPolicies', () => {
  it('let in each port the pods are probed and scraped on', () => {
    for (const [role, name] of [
      ['bot', 'cluster-bot-bot'],
      ['worker', 'cluster-bot-worker'],
    ] as const) {
      const container = findObject<Workload>(objects, 'Deployment', name).spec.template.spec.containers[0]!;
      const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', `cluster-bot-${role}`);
      for (const port of container.ports ?? [])
        expect(portsOf(policy.spec.ingress), `${role} ${port.name}`).toContain(port.containerPort);
    }
  });

  it('bot, worker and Redis pods are each selected by exactly one policy restricting both directions', () => {
    for (const [role, labels] of Object.entries(pods)) {
      const selecting = policiesFor(labels);
      expect(
        selecting.map((p) => p.metadata.name),
        role,
      ).toEqual([`cluster-bot-${role}`]);
      expect(selecting[0]!.spec.policyTypes.sort(), role).toEqual(['Egress', 'Ingress']);
    }
  });

  it('bot: in only on 3000 (Slack) and 9090 (ops); out only to DNS, Redis and Slack on 443, never SSH or a Kubernetes API', () => {
    const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', 'cluster-bot-bot');
    expect(portsOf(policy.spec.ingress)).toEqual([3000, 9090]);
    expect(portsOf(policy.spec.egress)).toEqual([53, 443, 6379]);
  });

  it('worker: in only on 9090 (ops); out only to DNS, Redis, Slack (443), SSH (22) and Kubernetes APIs (6443)', () => {
    const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', 'cluster-bot-worker');
    expect(portsOf(policy.spec.ingress)).toEqual([9090]);
    expect(portsOf(policy.spec.egress)).toEqual([22, 53, 443, 6379, 6443]);
  });

  it('the ops port (9090) takes traffic from the monitoring namespace only, not from every pod', () => {
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', name);
      const rules = (policy.spec.ingress ?? []).filter((rule) =>
        rule.ports?.some((p) => Number(p.port) === 9090),
      );
      expect(rules, name).toHaveLength(1);
      expect(rules[0]!.from, name).toEqual([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
      ]);
    }
  });

  it('DNS goes only to kube-dns and 6379 only to the Redis pods', () => {
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', name);
      const dns = egressRuleFor(policy, 53)?.to ?? [];
      expect(dns.length, name).toBeGreaterThan(0);
      for (const peer of dns) expect(peer.podSelector?.matchLabels, name).toEqual({ 'k8s-app': 'kube-dns' });
      const toRedis = egressRuleFor(policy, 6379)?.to ?? [];
      expect(toRedis.length, name).toBeGreaterThan(0);
      for (const peer of toRedis) expect(selectorMatches(peer.podSelector!, pods.redis), name).toBe(true);
    }
  });

  it('Redis: reachable on 6379 from the bot and the workers only, and dials nothing', () => {
    const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', 'cluster-bot-redis');
    const [rule, ...others] = policy.spec.ingress ?? [];
    expect(others).toEqual([]);
    expect(portsOf([rule!])).toEqual([6379]);
    const admits = (labels: Record<string, string>) =>
      rule!.from!.some(
        (peer) => !peer.namespaceSelector && !peer.ipBlock && selectorMatches(peer.podSelector!, labels),
      );
    expect(admits(pods.bot)).toBe(true);
    expect(admits(pods.worker)).toBe(true);
    expect(admits(pods.redis)).toBe(false);
    expect(admits({ app: 'anything-else' })).toBe(false);
    expect(policy.spec.egress).toEqual([]);
  });

  it('homelab: SSH and the Kubernetes APIs reach the ops host and every node of the world, and nothing wider', () => {
    const policy = findObject<NetworkPolicy>(objects, 'NetworkPolicy', 'cluster-bot-worker');
    const rule = egressRuleFor(policy, 22)!;
    expect(portsOf([rule])).toEqual([22, 6443]);
    const cidrs = (rule.to ?? []).map((peer) => peer.ipBlock?.cidr ?? 'not an ipBlock');
    expect(cidrs.length).toBeGreaterThan(0);
    for (const cidr of cidrs) expect(Number(cidr.split('/')[1]), cidr).toBeGreaterThanOrEqual(16);
    const configMap = findObject<K8sObject & { data: Record<string, string> }>(
      objects,
      'ConfigMap',
      'cluster-bot-config',
    );
    const world = parseWorldConfig(configMap.data['config.yaml']!);
    const addresses = [
      world.ops.host,
      ...Object.values(world.clusters).flatMap((c) => c.nodes.map((n) => n.address)),
    ];
    for (const address of addresses) {
      expect(
        cidrs.some((cidr) => ipv4InCidr(address, cidr)),
        `${address} is reachable`,
      ).toBe(true);
    }
  });
});
