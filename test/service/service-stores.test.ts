import { createMemoryServiceStores } from '../support/memory-service-stores.js';
import { describeServiceStoresContract } from '../support/service-stores-contract.js';

describeServiceStoresContract('in memory', async () => {
  const stores = createMemoryServiceStores({ now: () => 1_000, perMinute: 1, alertsChannel: 'C0ALERTS' });
  return {
    ports: stores.ports,
    write: {
      async ended(record) {
        stores.records.rewrite(record);
      },
      async approval(jobId, stepId, stored) {
        stores.approvals.put(jobId, stepId, stored);
      },
      async feed(jobId, lines, events) {
        for (const event of events) stores.feed.event(jobId, event, 1_000);
        for (const text of lines) stores.feed.line(jobId, text);
        stores.feed.end(jobId);
      },
      async verified(cluster, verify) {
        stores.notes.verified(cluster, verify);
      },
      async fluxSuspended(cluster, note) {
        stores.notes.fluxSuspended(cluster, note);
      },
      async alerted(cluster, watch, state) {
        stores.notes.alerted(cluster, watch, state);
      },
      async outbox(jobId, operations) {
        stores.notes.outbox(jobId, operations);
      },
    },
    cancelledBy: async (jobId) => stores.records.cancelledBy(jobId),
    stop: async () => {},
  };
});
