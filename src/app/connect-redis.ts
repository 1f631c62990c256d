import { readFileSync } from 'node:fs';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Env } from '../config/read-env.js';

/**
 * Every Redis connection of the process, made one way: a URL (`redis://`, or `rediss://` for TLS),
 * Sentinel when REDIS_SENTINELS is set, or a Redis Cluster when REDIS_CLUSTER_NODES is (the URL
 * then supplies password, TLS and, for Sentinel, db).
 * BullMQ needs `maxRetriesPerRequest: null` so commands wait out a failover instead of failing.
 */
export function connectRedis(
  env: Pick<
    Env,
    'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_CA_FILE' | 'REDIS_CLUSTER_NODES'
  >,
  /** Fail a command at once while disconnected instead of queueing it until Redis is back. */
  options: { readonly failFast?: boolean } = {},
): Redis {
  const url = new URL(env.REDIS_URL);
  const tls =
    url.protocol === 'rediss:'
      ? env.REDIS_CA_FILE
        ? { ca: readFileSync(env.REDIS_CA_FILE) }
        : {}
      : undefined;
  const common: RedisOptions = {
    maxRetriesPerRequest: null,
    ...(tls ? { tls } : {}),
    ...(options.failFast ? { enableOfflineQueue: false } : {}),
  };
  if (env.REDIS_CLUSTER_NODES) return connectCluster(env.REDIS_CLUSTER_NODES, url, common);
  if (!env.REDIS_SENTINELS) return new Redis(env.REDIS_URL, common);
  return new Redis({
    ...common,
    sentinels: hostPorts(env.REDIS_SENTINELS),
    name: env.REDIS_SENTINEL_NAME,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls,
    sentinelTLS: tls,
    enableTLSForSentinelMode: tls !== undefined,
  });
}

/**
 * A Redis Cluster from its seed nodes. ioredis's Cluster answers every command the bot sends as a
 * single Redis does (both are its Commander with transactions and scripts), so the rest of the bot
 * keeps one type; BullMQ is handed the Cluster itself and uses it as one. The keys' hash tag
 * (REDIS_PREFIX, checked with the environment) keeps each MULTI and script in one slot.
 */
function connectCluster(nodes: string, url: URL, common: RedisOptions): Redis {
  const cluster = new Cluster(hostPorts(nodes), {
    enableOfflineQueue: common.enableOfflineQueue ?? true,
    redisOptions: {
      ...common,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      username: url.username ? decodeURIComponent(url.username) : undefined,
    },
  });
  return cluster as unknown as Redis;
}

function hostPorts(list: string): { host: string; port: number }[] {
  return list.split(',').map((entry) => {
    const [host, port] = entry.split(':');
    return { host: host!, port: Number(port) };
  });
}
