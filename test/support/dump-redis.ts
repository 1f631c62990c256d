import { Redis } from 'ioredis';
import { REDIS_URL } from './redis-prefix.js';

/** Everything stored under a prefix (strings, hashes, lists, sets, streams), as one text to search. */
export async function dumpRedis(prefix: string): Promise<string> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    const values = await Promise.all(
      keys.map(async (key) => {
        const type = await redis.type(key);
        if (type === 'string') return redis.get(key);
        if (type === 'hash') return redis.hgetall(key);
        if (type === 'list') return redis.lrange(key, 0, -1);
        if (type === 'set') return redis.smembers(key);
        if (type === 'zset') return redis.zrange(key, 0, -1);
        if (type === 'stream') return redis.xrange(key, '-', '+');
        return null;
      }),
    );
    return JSON.stringify(Object.fromEntries(keys.map((key, i) => [key, values[i]])));
  } finally {
    redis.disconnect();
  }
}
