import type { JobThread, ThreadStore } from '../../src/jobs/ports/job-thread.js';
import { startedThread } from '../../src/jobs/thread-store.js';

/** Jobs' threads as their workers saved them, in memory; a job never shown has a thread just started. */
export function createMemoryThreadStore(alertsChannel: string) {
  const saved = new Map<string, JobThread>();
  const store: ThreadStore = {
    load: async (record) => saved.get(record.id) ?? startedThread(record, alertsChannel),
  };
  return {
    store,
    save(thread: JobThread) {
      saved.set(thread.jobId, thread);
    },
  };
}
