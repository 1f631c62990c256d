import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

const WINDOW_MS = 60_000;
/** How long a delivery's key is remembered: Slack's retries and replays come well within it. */
export const DELIVERY_DEDUP_SECONDS = 24 * 3_600;

/** One command as it arrives: who sent it, and the key of its delivery (Slack repeats a delivery with the same one). */
export interface Admission {
  readonly userId: string;
  readonly deliveryKey?: string | undefined;
}

/** A command's fate before anything else: taken, a repeat of one already taken, or over its sender's limit. */
export type AdmissionVerdict = 'admitted' | 'repeated' | 'limited';

/**
 * The start of every script that admits a command: KEYS[1] the delivery's dedup key, KEYS[2] the
 * sender's count this minute; ARGV[1] the dedup's seconds ('' when the command has no delivery
 * key), ARGV[2] the limit per minute ('' for a command already admitted), ARGV[3] the count's
 * expiry (ms). A repeat returns before it is counted, as a delivery dropped at the door would.
 */
export const ADMIT_LUA = `
if ARGV[1] ~= '' and not redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') then return {'repeated'} end
if ARGV[2] ~= '' then
  local count = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  if count > tonumber(ARGV[2]) then return {'limited'} end
end
`;

const ADMIT_ONLY = `${ADMIT_LUA} return {'admitted'}`;

export interface CommandRateLimit {
  readonly perMinute: number;
  /** Drops a repeated delivery and counts one command of the user, in one round trip. */
  admit(admission: Admission): Promise<AdmissionVerdict>;
  /** ADMIT_LUA's keys and arguments, for a script that admits a command as it acts on it (or only acts: undefined). */
  scriptPart(admission: Admission | undefined): { keys: string[]; args: string[] };
}

/**
 * Commands per user per clock minute, counted in Redis so every bot process shares the count, and
 * each delivery taken once (its key kept a day). It runs before anything that costs a job; a verb
 * that submits one admits its command in the same script as the job's record (`record-command.ts`).
 */
export function createCommandRateLimit(
  redis: Redis,
  keys: RedisKeys,
  perMinute: number,
  now: () => number,
): CommandRateLimit {
  const scriptPart = (admission: Admission | undefined) => ({
    keys: [
      keys.dedup(admission?.deliveryKey ?? '-'),
      keys.commandCount(admission?.userId ?? '-', Math.floor(now() / WINDOW_MS)),
    ],
    args: [
      admission?.deliveryKey === undefined ? '' : String(DELIVERY_DEDUP_SECONDS),
      admission === undefined ? '' : String(perMinute),
      String(2 * WINDOW_MS),
    ],
  });
  return {
    perMinute,
    async admit(admission) {
      const part = scriptPart(admission);
      const [verdict] = (await redis.eval(ADMIT_ONLY, 2, ...part.keys, ...part.args)) as [AdmissionVerdict];
      return verdict;
    },
    scriptPart,
  };
}
