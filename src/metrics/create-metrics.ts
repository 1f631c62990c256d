import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The process's Prometheus metrics, in one registry passed to whoever counts something. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cluster_bot_' });
  return {
    registry,
    jobs: new Counter({
      name: 'cluster_bot_jobs_total',
      help: 'Jobs that ended, by command verb and outcome',
      labelNames: ['command', 'outcome'],
      registers: [registry],
    }),
    stepDuration: new Histogram({
      name: 'cluster_bot_step_duration_seconds',
      help: 'How long steps took, by step title and status',
      labelNames: ['step', 'status'],
      buckets: [0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    }),
    approvalWait: new Histogram({
      name: 'cluster_bot_approval_wait_seconds',
      help: 'From an approval request to its decision',
      labelNames: ['decision'],
      buckets: [10, 30, 60, 300, 900, 1800, 3600],
      registers: [registry],
    }),
    slackCalls: new Counter({
      name: 'cluster_bot_slack_calls_total',
      help: 'Slack Web API calls, by method',
      labelNames: ['method'],
      registers: [registry],
    }),
    slackRateLimited: new Counter({
      name: 'cluster_bot_slack_rate_limited_total',
      help: 'Slack answers with 429, by method',
      labelNames: ['method'],
      registers: [registry],
    }),
    sshFailures: new Counter({
      name: 'cluster_bot_ssh_connection_failures_total',
      help: 'SSH connections that failed, by error code',
      labelNames: ['code'],
      registers: [registry],
    }),
    gateFailures: new Counter({
      name: 'cluster_bot_gate_failures_total',
      help: 'Failed verify gates, by cluster and gate',
      labelNames: ['cluster', 'gate'],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
