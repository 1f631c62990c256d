import type { RerunSource } from '../../lifecycle/engine/carry-over.js';
import type { StepRecord } from '../../lifecycle/ports/checkpoint-store.js';
import type { JobRef } from '../job-record.js';
import type { JobProcessorDeps } from './job-processor-deps.js';

/**
 * The checkpoints of the job a re-run repeats, as it left them (it ended: nothing writes them
 * now). Expired meanwhile, there are none, and the re-run carries nothing over.
 */
export async function readRerunSource(
  deps: Pick<JobProcessorDeps, 'redis' | 'keys'>,
  original: JobRef,
): Promise<RerunSource> {
  const raw = await deps.redis.hgetall(deps.keys.steps(original.jobId));
  const records = Object.fromEntries(
    Object.entries(raw).map(([id, json]) => [id, JSON.parse(json) as StepRecord]),
  );
  return { number: original.number, records };
}
