import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A prefix no other test uses, and a way to delete everything written under it. */
export function uniquePrefix(name: string): { prefix: string; cleanup(): Promise<void> } {
  const prefix = `cbtest-${name}-${randomBytes(4).toString('hex')}`;
  return {
    prefix,
    async cleanup() {
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          if (found.length > 0) await redis.del(...found);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
