import { Redis } from 'ioredis';

/**
 * `used_memory` summed over the Redis servers behind an environment: the one REDIS_URL names, or
 * every master REDIS_CLUSTER_NODES lists (the benchmark's cluster has no replicas). The section
 * runs on a Redis of its own, so the figure is the bot's alone.
 */
export async function redisUsedMemory(env: {
  readonly REDIS_URL: string;
  readonly REDIS_CLUSTER_NODES?: string | undefined;
}): Promise<number> {
  const servers = env.REDIS_CLUSTER_NODES
    ? env.REDIS_CLUSTER_NODES.split(',').map((node) => `redis://${node.trim()}`)
    : [env.REDIS_URL];
  let bytes = 0;
  for (const url of servers) {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const info = await redis.info('memory');
      const used = /^used_memory:(\d+)\r?$/m.exec(info)?.[1];
      if (!used) throw new Error(`no used_memory in INFO memory of ${url}`);
      bytes += Number(used);
    } finally {
      redis.disconnect();
    }
  }
  return bytes;
}
