import { randomBytes } from 'node:crypto';
import { startRedisCluster } from '../test/lab/start-redis-cluster.js';
import { REDIS_URL, uniquePrefix } from '../test/support/redis-prefix.js';

export type RedisMode = 'single' | 'cluster';

/** Where the benchmark's Redis traffic goes: the shared single Redis, or a private Redis Cluster. */
export interface BenchRedis {
  readonly mode: RedisMode;
  /** Added to a bench lab's process environment (empty on the single Redis: the lab's own prefix stays). */
  labEnv(): Record<string, string>;
  /** A fresh key space for code run in the bench process: its environment (for readEnv) and prefix. */
  space(name: string): { env: Record<string, string>; prefix: string; cleanup(): Promise<void> };
  stop(): Promise<void>;
}

export async function startBenchRedis(mode: RedisMode): Promise<BenchRedis> {
  if (mode === 'single')
    return {
      mode,
      labEnv: () => ({}),
      space(name) {
        const { prefix, cleanup } = uniquePrefix(name);
        return { env: { REDIS_URL, REDIS_PREFIX: prefix }, prefix, cleanup };
      },
      stop: async () => undefined,
    };
  // Three masters on loopback, thrown away with their keys at the end of the run.
  const cluster = await startRedisCluster();
  // On a cluster the prefix is a hash tag, so a job's keys, its lease and BullMQ's queue share one slot.
  const tagged = (name: string) => {
    const prefix = `{cbbench-${name}-${randomBytes(4).toString('hex')}}`;
    return { REDIS_URL, REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: prefix };
  };
  return {
    mode,
    labEnv: () => tagged('lab'),
    space(name) {
      const env = tagged(name);
      return { env, prefix: env.REDIS_PREFIX, cleanup: async () => undefined };
    },
    stop: () => cluster.stop(),
  };
}
