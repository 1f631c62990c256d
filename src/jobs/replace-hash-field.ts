import type { Redis } from 'ioredis';

// Compare-and-set in one script: it runs alone on the server, whatever else shares the connection
// (WATCH is per connection, so another caller's EXEC on a shared one silently drops it).
const REPLACE = `if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('hset', KEYS[1], ARGV[1], ARGV[3]) return 1 else return 0 end`;

/**
 * Writes `next` into a hash field only if it still holds exactly `expected`, the value the caller
 * decided on; false when someone else wrote it first (read again and decide again).
 */
export async function replaceHashField(
  redis: Redis,
  key: string,
  field: string,
  expected: string,
  next: string,
): Promise<boolean> {
  return (await redis.eval(REPLACE, 1, key, field, expected, next)) === 1;
}
