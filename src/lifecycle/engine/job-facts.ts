import type { JobFacts } from '../plan/step.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';

const FACTS_KEY = '_facts';

/** Facts live in the checkpoint store under one reserved key, so they survive resumes with the steps. */
export async function loadJobFacts(checkpoints: CheckpointStore): Promise<JobFacts> {
  const record = await checkpoints.get(FACTS_KEY);
  const values: Record<string, unknown> = { ...(record?.data ?? {}) };
  return {
    get: <T>(key: string) => values[key] as T | undefined,
    async set(key, value) {
      values[key] = value;
      await checkpoints.set(FACTS_KEY, { status: 'succeeded', data: { ...values } });
    },
  };
}
