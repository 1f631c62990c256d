import type { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { meterBacklog } from '../../src/app/meter-backlog.js';
import { meterJobPages } from '../../src/app/meter-job-pages.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { findObject } from './find-object.js';
import type { K8sObject, LabelSelector, Workload } from './k8s-types.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';
import { selectorMatches } from './selector-matches.js';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
type PrometheusRule = K8sObject & { spec: { groups: { name: string; rules: Rule[] }[] } };
type PodMonitor = K8sObject & {
  spec: { selector: LabelSelector; podMetricsEndpoints: { port: string; path: string }[] };
};
interface Dashboard {
  uid: string;
  panels: { id: number; title: string; targets: { expr: string }[] }[];
}

const monitoring = await renderKustomization(repoPath('deploy/monitoring'));
const app = await renderKustomization(repoPath('deploy/overlays/homelab'));
const rules = findObject<PrometheusRule>(
  monitoring.objects,
  'PrometheusRule',
  'cluster-bot',
).spec.groups.flatMap((group) => group.rules);
const dashboardMap = findObject<K8sObject & { data: Record<string, string> }>(
  monitoring.objects,
  'ConfigMap',
  'cluster-bot-dashboard',
);
const dashboard = JSON.parse(dashboardMap.data['cluster-bot.json']!) as Dashboard;

/** Every series name a bot process can put on /metrics (a histogram as its three series). */
async function exportedSeries(): Promise<Set<string>> {
  const metrics = createMetrics();
  meterBacklog(metrics.registry, {
    backlog: async () => ({ clusters: [], outbox: { jobs: 0, operations: 0 } }),
  });
  meterJobPages(metrics.registry, { stats: () => ({ streams: 0, pollers: 0, polls: 0, pollReads: 0 }) });
  const names = new Set<string>();
  for (const metric of await (metrics.registry as Registry).getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const part of ['_bucket', '_count', '_sum']) names.add(metric.name + part);
  }
  return names;
}

const referenced = (expr: string) => expr.match(/\bcluster_bot_[a-z0-9_]+/g) ?? [];

describe('deploy/monitoring: alert rules and a dashboard for what the bot exports', () => {
  it('alerts on a job stuck, approvals expiring, the outbox backing up and the verify failing, each with a severity and words', () => {
    const names = rules.map((rule) => rule.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'ClusterBotJobStuck',
        'ClusterBotApprovalExpiring',
        'ClusterBotOutboxBackingUp',
        'ClusterBotVerifyFailing',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(['info', 'warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
    }
  });

  it('every series a rule or a panel reads is one the bot exports (a renamed metric fails here, not at 3 a.m.)', async () => {
    const exported = await exportedSeries();
    const used = [
      ...rules.map((rule) => rule.expr),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ];
    const missing = used.flatMap(referenced).filter((name) => !exported.has(name));
    expect(missing).toEqual([]);
    expect(used.flatMap(referenced).length).toBeGreaterThan(10);
  });

  it("the dashboard is a ConfigMap Grafana's sidecar loads: labelled, one uid, panels with unique ids and queries", () => {
    expect(dashboardMap.metadata.labels).toEqual({ grafana_dashboard: '1' });
    expect(dashboard.uid).toBe('cluster-bot');
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) expect(panel.targets.length, panel.title).toBeGreaterThan(0);
  });

  it('the PodMonitor scrapes the ops port of both the bot and the worker pods', () => {
    const monitor = findObject<PodMonitor>(monitoring.objects, 'PodMonitor', 'cluster-bot');
    expect(monitor.spec.podMetricsEndpoints).toEqual([
      expect.objectContaining({ port: 'ops', path: '/metrics' }),
    ]);
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      const template = findObject<Workload>(app.objects, 'Deployment', name).spec.template;
      expect(selectorMatches(monitor.spec.selector, template.metadata?.labels ?? {}), name).toBe(true);
      const ports = template.spec.containers.flatMap((container) => container.ports ?? []);
      expect(
        ports.map((port) => port.name),
        name,
      ).toContain('ops');
    }
  });
});
