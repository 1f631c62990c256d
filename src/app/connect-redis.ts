import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import type { Env } from '../config/read-env.js';

/**
 * Every Redis connection of the process, made one way: a URL (`redis://`, or `rediss://` for TLS),
 * or Sentinel when REDIS_SENTINELS is set (the URL then supplies password, TLS and db).
 * BullMQ needs `maxRetriesPerRequest: null` so commands wait out a failover instead of failing.
 */
export function connectRedis(
  env: Pick<Env, 'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_CA_FILE'>,
): Redis {
  const url = new URL(env.REDIS_URL);
  const tls =
    url.protocol === 'rediss:'
      ? env.REDIS_CA_FILE
        ? { ca: readFileSync(env.REDIS_CA_FILE) }
        : {}
      : undefined;
  const common: RedisOptions = { maxRetriesPerRequest: null, ...(tls ? { tls } : {}) };
  if (!env.REDIS_SENTINELS) return new Redis(env.REDIS_URL, common);
  return new Redis({
    ...common,
    sentinels: env.REDIS_SENTINELS.split(',').map((entry) => {
      const [host, port] = entry.split(':');
      return { host: host!, port: Number(port) };
    }),
    name: env.REDIS_SENTINEL_NAME,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls,
    sentinelTLS: tls,
    enableTLSForSentinelMode: tls !== undefined,
  });
}
