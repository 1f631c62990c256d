import { Gauge, type Registry } from 'prom-client';
import type { Backlog, ClusterBacklog, ClusterService } from '../service/index.js';

/**
 * What may be piling up, on /metrics, read from Redis when Prometheus scrapes: the gauges the alert
 * rules in deploy/monitoring watch (a job stuck, approvals expiring, the outbox backing up, the
 * scheduled verify failing). Every bot process reports the same figures: the rules take the max.
 */
export function meterBacklog(registry: Registry, service: Pick<ClusterService, 'backlog'>): void {
  // A scrape collects every gauge at once: they share the read in flight, and the next scrape reads anew.
  let reading: Promise<Backlog> | undefined;
  const backlog = () => {
    reading ??= service.backlog().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  const perCluster = (
    name: string,
    help: string,
    set: (gauge: Gauge, cluster: ClusterBacklog) => void,
    labelNames: string[] = ['cluster'],
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const { clusters } = await backlog();
        this.reset();
        for (const cluster of clusters) set(this, cluster);
      },
    });
  perCluster('cluster_bot_open_jobs', 'Jobs not ended, per cluster', (gauge, c) =>
    gauge.set({ cluster: c.cluster }, c.openJobs),
  );
  perCluster(
    'cluster_bot_oldest_open_job_seconds',
    'Age since its request of the oldest open job running a step, waiting for approval, or queued (0: none)',
    (gauge, c) => {
      for (const [state, ms] of Object.entries(c.oldestOpenMs))
        gauge.set({ cluster: c.cluster, state }, ms / 1_000);
    },
    ['cluster', 'state'],
  );
  perCluster(
    'cluster_bot_pending_approvals',
    'Approval requests waiting for a decision, per cluster',
    (gauge, c) => gauge.set({ cluster: c.cluster }, c.pendingApprovals),
  );
  perCluster(
    'cluster_bot_approval_expires_in_seconds',
    'Until the soonest pending approval of the cluster expires (absent when none waits)',
    (gauge, c) => {
      if (c.soonestApprovalExpiresInMs !== undefined)
        gauge.set({ cluster: c.cluster }, c.soonestApprovalExpiresInMs / 1_000);
    },
  );
  perCluster(
    'cluster_bot_last_verify_timestamp_seconds',
    "When the cluster's last verify (scheduled or asked for) ended (absent: never)",
    (gauge, c) => {
      if (c.lastVerify) gauge.set({ cluster: c.cluster }, c.lastVerify.at / 1_000);
    },
  );
  perCluster(
    'cluster_bot_verify_every_seconds',
    "The cluster's scheduled verify period, verifyEvery (absent: not scheduled)",
    (gauge, c) => {
      if (c.verifyEveryMs !== undefined) gauge.set({ cluster: c.cluster }, c.verifyEveryMs / 1_000);
    },
  );
  perCluster(
    'cluster_bot_last_verify_failed',
    "1 when the cluster's last verify failed, else 0",
    (gauge, c) => gauge.set({ cluster: c.cluster }, c.lastVerify?.outcome === 'failed' ? 1 : 0),
  );
  const outbox = (name: string, help: string, read: (outbox: Backlog['outbox']) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(read((await backlog()).outbox));
      },
    });
  outbox('cluster_bot_outbox_jobs', 'Jobs whose thread still has operations to send to Slack', (o) => o.jobs);
  outbox(
    'cluster_bot_outbox_operations',
    'Thread operations queued for Slack, over every job',
    (o) => o.operations,
  );
}
