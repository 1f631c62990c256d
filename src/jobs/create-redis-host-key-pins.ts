import type { Redis } from 'ioredis';
import type { HostKeyPins, KeptHostKey } from '../lifecycle/ports/host-key-pins.js';
import type { AuditLog } from './audit-log.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * The bot's host-key pins in Redis, one hash per cluster, so every worker and every later job has
 * them; a pin and its audit entry (job, approvers, fingerprint) land in one transaction.
 */
export function createRedisHostKeyPins(redis: Redis, keys: RedisKeys, audit: AuditLog): HostKeyPins {
  return {
    read: (cluster) => readHostKeyPins(redis, keys, cluster),
    async keep(cluster, node, key) {
      const multi = redis.multi().hset(keys.hostKeyPins(cluster), node, JSON.stringify(key));
      audit.queue(multi, {
        at: key.at,
        who: key.approvedBy.join(',') || 'unknown',
        action: 'pin-host-key',
        what: `kept ${key.fingerprint} (${key.keyType}) as the host key of ${node}`,
        cluster,
        jobId: key.jobId,
      });
      await multi.exec();
    },
  };
}

/** A cluster's kept host keys by node: for the worker's runs and for `status`. */
export async function readHostKeyPins(
  redis: Redis,
  keys: RedisKeys,
  cluster: string,
): Promise<Record<string, KeptHostKey>> {
  const raw = await redis.hgetall(keys.hostKeyPins(cluster));
  return Object.fromEntries(
    Object.entries(raw).map(([node, json]) => [node, JSON.parse(json) as KeptHostKey]),
  );
}
