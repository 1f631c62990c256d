import type { Redis } from 'ioredis';
import type { AlertState } from './compare-gate-alerts.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * What the workers and scheduled watches noted of a cluster, as they stored it: the last verify, a
 * Flux left suspended, the alerts not yet seen clear. Their shapes are the writers' (settle-job.ts,
 * run-scheduled-verify.ts, run-scheduled-drift.ts); the service's port names them.
 */
export function createRedisClusterNotes(redis: Redis, keys: RedisKeys) {
  const readJson = async (key: string) => {
    const raw = await redis.get(key);
    return raw ? JSON.parse(raw) : undefined;
  };
  return {
    lastVerify: (cluster: string) => readJson(keys.lastVerify(cluster)),
    fluxSuspended: (cluster: string) => readJson(keys.fluxSuspended(cluster)),
    async alertStates(cluster: string): Promise<AlertState[]> {
      const states = await redis.mget(keys.verifyAlerts(cluster), keys.driftAlerts(cluster));
      return states.flatMap((raw) => (raw ? [JSON.parse(raw) as AlertState] : []));
    },
  };
}
