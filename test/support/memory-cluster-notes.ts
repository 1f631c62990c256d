import type { AlertState } from '../../src/jobs/compare-gate-alerts.js';
import type { FluxSuspended, LastVerify } from '../../src/service/cluster-service.js';
import type { ClusterNotes } from '../../src/service/ports/cluster-notes.js';
import type { OutboxBacklog } from '../../src/service/ports/outbox-backlog.js';

/** What the workers and watches noted of each cluster, and the outboxes' backlog, in memory: the test notes them. */
export function createMemoryClusterNotes() {
  const lastVerify = new Map<string, LastVerify>();
  const flux = new Map<string, FluxSuspended>();
  const alerts = new Map<string, { verify?: AlertState; drift?: AlertState }>();
  const outboxes = new Map<string, number>();
  const notes: ClusterNotes = {
    lastVerify: async (cluster) => lastVerify.get(cluster),
    fluxSuspended: async (cluster) => flux.get(cluster),
    async alertStates(cluster) {
      const { verify, drift } = alerts.get(cluster) ?? {};
      return [verify, drift].filter((state) => state !== undefined);
    },
  };
  const outboxBacklog: OutboxBacklog = {
    async read() {
      const sizes = [...outboxes.values()].filter((size) => size > 0);
      return { jobs: sizes.length, operations: sizes.reduce((sum, size) => sum + size, 0) };
    },
  };
  return {
    notes,
    outboxBacklog,
    verified(cluster: string, verify: LastVerify) {
      lastVerify.set(cluster, verify);
    },
    fluxSuspended(cluster: string, note: FluxSuspended) {
      flux.set(cluster, note);
    },
    alerted(cluster: string, watch: 'verify' | 'drift', state: AlertState) {
      alerts.set(cluster, { ...alerts.get(cluster), [watch]: state });
    },
    /** A job's thread outbox holding `operations` calls not yet sent. */
    outbox(jobId: string, operations: number) {
      outboxes.set(jobId, operations);
    },
  };
}
