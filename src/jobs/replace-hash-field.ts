import type { ChainableCommander, Redis } from 'ioredis';

// Compare-and-set in one script: it runs alone on the server, whatever else shares the connection
// (WATCH is per connection, so another caller's EXEC on a shared one silently drops it).
const REPLACE_EACH = `local lost = {} for i = 1, #ARGV, 3 do if redis.call('hget', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('hset', KEYS[1], ARGV[i], ARGV[i + 2]) else lost[#lost + 1] = ARGV[i] end end return lost`;
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

/**
 * The same for several fields, as one script queued on the caller's transaction; its result lists
 * the fields someone else wrote first (left as they are).
 */
export function queueReplaceHashFields(
  multi: ChainableCommander,
  key: string,
  replacements: readonly { field: string; expected: string; next: string }[],
): void {
  multi.eval(REPLACE_EACH, 1, key, ...replacements.flatMap((r) => [r.field, r.expected, r.next]));
}
