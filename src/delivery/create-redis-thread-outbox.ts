import type { ChainableCommander, Redis } from 'ioredis';
import type { ThreadState } from './delivery.js';
import type { DeliveryKeys } from './delivery-keys.js';
import type { HeldMessages, OutboxSeq, ThreadMessages } from './thread-outbox.js';

// Only the holder of an outbox's lease may renew or let go of it.
const RENEW_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

// Claims a job's outbox for ARGV[1] (a lease of ARGV[2] ms) and, in the same round trip, reads its
// first ARGV[3] operations, how many were taken off before them (KEYS[5]'s `taken`) and the ts of its
// thread's messages: what the holder keeps in memory. An empty outbox is let go at once. False when
// another process holds it; a lease already ARGV[1]'s is renewed (a claim resent after its reply was
// lost must not wait for its own lease to lapse).
const CLAIM = `local holder = redis.call('get', KEYS[1])
if holder and holder ~= ARGV[1] then return false end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
local ops = redis.call('lrange', KEYS[2], 0, tonumber(ARGV[3]) - 1)
if #ops == 0 then
  redis.call('srem', KEYS[3], ARGV[4])
  redis.call('del', KEYS[1])
end
return {ops, redis.call('hgetall', KEYS[4]), tonumber(redis.call('hget', KEYS[5], 'taken') or '0')}`;
// Only the lease holder takes the operation it sent (number ARGV[5] in the outbox's life) off the
// outbox, renewing its lease as it does, and reads the next ARGV[3] in the same round trip. A take
// resent after its reply was lost (ioredis resends unanswered commands on reconnect) finds that
// operation gone already and takes nothing: trimming by position would drop the next one, never sent.
// An outbox left empty is let go (an append since the holder last looked keeps it sending). False
// once the lease is another's.
const TAKE = `if redis.call('get', KEYS[1]) ~= ARGV[1] then return false end
local sent = tonumber(ARGV[5])
if tonumber(redis.call('hget', KEYS[4], 'taken') or '0') <= sent then
  redis.call('ltrim', KEYS[2], 1, -1)
  redis.call('hset', KEYS[4], 'taken', sent + 1)
end
local ops = redis.call('lrange', KEYS[2], 0, tonumber(ARGV[3]) - 1)
if #ops == 0 then
  redis.call('srem', KEYS[3], ARGV[4])
  redis.call('del', KEYS[1])
else
  redis.call('pexpire', KEYS[1], ARGV[2])
end
return ops`;
// Records a message's ts unless one is recorded already, and returns the one recorded: the first
// writer wins (each name is posted once in a job's life: the root, a step's tail, edited after), so a
// holder that lost its lease mid-post cannot replace the ts its successor's messages went under.
// A message's ts lives as long as the job it belongs to: the job's retention may have started already,
// or even ended (the job's keys gone), in which case the ts gets a retention of its own.
const RECORD_TS = `if redis.call('hsetnx', KEYS[1], ARGV[1], ARGV[2]) == 0 then return redis.call('hget', KEYS[1], ARGV[1]) end
local ttl = redis.call('pttl', KEYS[2])
if ttl == -2 then ttl = tonumber(ARGV[3]) end
if ttl > 0 then redis.call('pexpire', KEYS[1], ttl) end
return ARGV[2]`;
// Appends a job's operations numbered from ARGV[2] in the appender's stream ARGV[1]: the ones
// already in (a resent or retried append) are skipped, and a gap (an earlier append that never
// landed) is refused with -1, so the appender resends from there and the list stays in order.
// A new stream (another writer's: a later run's, or one whose appends were given up) starts at 0 and
// is the job's from then on; an older one's later appends are refused as gaps. Returns how many went in.
const APPEND = `local stream = redis.call('hget', KEYS[1], 'stream')
local first = tonumber(ARGV[2])
local nextSeq = 0
if stream == ARGV[1] then nextSeq = tonumber(redis.call('hget', KEYS[1], 'next')) end
if first > nextSeq then return -1 end
local last = first + #ARGV - 4
if last <= nextSeq then return 0 end
for i = 5 + nextSeq - first, #ARGV do redis.call('rpush', KEYS[2], ARGV[i]) end
redis.call('hset', KEYS[1], 'stream', ARGV[1], 'next', last)
redis.call('pexpire', KEYS[1], ARGV[4])
redis.call('sadd', KEYS[3], ARGV[3])
return last - nextSeq`;

/** Raised when an append's operations would leave a gap in the job's outbox (an earlier append is missing). */
export class OutboxGapError extends Error {
  constructor(jobId: string, first: number) {
    super(`outbox of job ${jobId}: operation ${first} would leave a gap`);
  }
}

/** A claimed outbox: its first operations and its messages' ts, read in the claim's round trip. */
export interface Claimed {
  readonly ops: string[];
  /** The first operation's number in the outbox's life (how many were taken off before it): what `take` is told it sent. */
  readonly first: number;
  readonly messages: HeldMessages;
}

/**
 * Where appends leave: the process's one pipeline per tick (src/jobs/command-batch.ts), so a step's
 * thread state and messages leave with its checkpoint and page event.
 */
export interface PipelineBatch {
  send(fill: (pipeline: ChainableCommander) => void): Promise<unknown[]>;
}

/** Delivery's keys, and the job record's, whose retention a message's ts takes. */
export type OutboxKeys = DeliveryKeys & { readonly job: (id: string) => string };

/** The thread's state as saved: its root's ts is the sender's to write (threadMessages), never a worker's. */
function queueSaveThread(
  pipeline: ChainableCommander,
  keys: OutboxKeys,
  jobId: string,
  thread: ThreadState,
): void {
  const { threadTs: _sentBySender, ...saved } = thread;
  // KEEPTTL: the final save lands after the job finished and was given its retention.
  pipeline.set(keys.board(jobId), JSON.stringify(saved), 'KEEPTTL');
}

/**
 * The job threads' outboxes in Redis: a list of operations per job, the set of jobs with a
 * non-empty one, and a lease per job so one process at a time sends it. An operation leaves the
 * list only after it was sent, so a process that dies mid-send leaves at most that one to repeat.
 * Appends go through `batch`: given the process's, a step's thread state and messages leave in the
 * same pipeline as its checkpoint and page event. Each operation carries its number in its
 * appender's stream, so a retried append is stored once and one after a lost append is refused.
 */
export function createRedisThreadOutbox(
  redis: Redis,
  keys: OutboxKeys,
  retentionMs: number,
  batch: PipelineBatch,
) {
  const messages: ThreadMessages = {
    async get(jobId, name) {
      return (await redis.hget(keys.threadMessages(jobId), name)) ?? undefined;
    },
    async record(jobId, name, ts) {
      const keysOf = [keys.threadMessages(jobId), keys.job(jobId)];
      return (await redis.eval(RECORD_TS, 2, ...keysOf, name, ts, String(retentionMs))) as string;
    },
  };
  return {
    messages,
    async append<S extends ThreadState>(
      jobId: string,
      ops: readonly string[],
      at: OutboxSeq,
      thread?: S,
    ): Promise<void> {
      const replies = await batch.send((pipeline) => {
        if (thread) queueSaveThread(pipeline, keys, jobId, thread);
        if (ops.length === 0) return;
        const keysOf = [keys.outboxSeq(jobId), keys.outbox(jobId), keys.outboxes];
        pipeline.eval(APPEND, 3, ...keysOf, at.stream, String(at.first), jobId, String(retentionMs), ...ops);
      });
      if (ops.length > 0 && replies.at(-1) === -1) throw new OutboxGapError(jobId, at.first);
    },
    /** Jobs whose outbox is not empty (some may be held by a live process). */
    pending: (): Promise<string[]> => redis.smembers(keys.outboxes),
    size: (jobId: string): Promise<number> => redis.llen(keys.outbox(jobId)),
    /**
     * Claims the job's outbox: its first `count` operations and its messages' ts as they are now, or
     * undefined when another process holds it. With no operations, it was let go already.
     */
    async claim(jobId: string, owner: string, leaseMs: number, count: number): Promise<Claimed | undefined> {
      const keysOf = [
        keys.outboxLease(jobId),
        keys.outbox(jobId),
        keys.outboxes,
        keys.threadMessages(jobId),
        keys.outboxSeq(jobId),
      ];
      const claimed = (await redis.eval(CLAIM, 5, ...keysOf, owner, String(leaseMs), String(count), jobId)) as
        | [string[], string[], number]
        | null;
      if (!claimed) return undefined;
      const [ops, fields, first] = claimed;
      const messages: HeldMessages = new Map();
      for (let i = 0; i + 1 < fields.length; i += 2) messages.set(fields[i]!, fields[i + 1]!);
      return { ops, first, messages };
    },
    async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
      return (await redis.eval(RENEW_LEASE, 1, keys.outboxLease(jobId), owner, String(leaseMs))) === 1;
    },
    peek: (jobId: string, count: number): Promise<string[]> => redis.lrange(keys.outbox(jobId), 0, count - 1),
    /**
     * Takes operation number `sent` off (it was sent; a repeated take of it takes nothing) and returns
     * the ones after it, `count` at most; with none left, the outbox was let go. Undefined once the
     * lease is no longer `owner`'s.
     */
    async take(
      jobId: string,
      owner: string,
      leaseMs: number,
      count: number,
      sent: number,
    ): Promise<string[] | undefined> {
      const keysOf = [keys.outboxLease(jobId), keys.outbox(jobId), keys.outboxes, keys.outboxSeq(jobId)];
      const args = [owner, String(leaseMs), String(count), jobId, String(sent)];
      const next = (await redis.eval(TAKE, 4, ...keysOf, ...args)) as string[] | null;
      return next ?? undefined;
    },
    /** Leaves what is left to another process (shutdown). */
    async release(jobId: string, owner: string): Promise<void> {
      await redis.eval(RELEASE_LEASE, 1, keys.outboxLease(jobId), owner);
    },
  };
}

export type RedisThreadOutbox = ReturnType<typeof createRedisThreadOutbox>;
