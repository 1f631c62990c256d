import { type SentMessages, THREAD_ROOT } from './delivery.js';
import type { HeldMessages, ThreadMessages } from './thread-outbox.js';

/**
 * The ts of the threads' messages as this process's sender sees them: kept in Redis as they are
 * posted, so whichever process sends a job's next call replies under the same root and edits the
 * same messages; while this process holds the job's outbox, read from its `held` copy (read with
 * the claim) rather than from Redis. A ts whose keeping failed (Redis) is kept by the next look at
 * its name, so a message posted is never posted again for want of its ts. A ts is kept
 * first-writer-wins (ThreadMessages.record): a holder whose post came back after another had
 * posted and kept its own goes on with the one kept, so the thread never moves.
 */
export function createMessageBook(messages: ThreadMessages) {
  /** ts posted whose keeping in Redis failed, by job and name. */
  const unkept = new Map<string, string>();
  const keep = async (jobId: string, name: string, ts: string, held: HeldMessages | undefined) => {
    unkept.set(`${jobId}/${name}`, ts);
    const recorded = await messages.record(jobId, name, ts);
    unkept.delete(`${jobId}/${name}`);
    held?.set(name, recorded);
    return recorded;
  };
  const kept = async (jobId: string, name: string, held: HeldMessages | undefined) => {
    const ts = unkept.get(`${jobId}/${name}`);
    if (ts === undefined) return held ? held.get(name) : messages.get(jobId, name);
    return keep(jobId, name, ts, held);
  };
  /** Job `jobId`'s messages for one call, with `held` the holder's copy (without it, read from Redis). */
  return (jobId: string, held?: HeldMessages): SentMessages => ({
    get: (name) => kept(jobId, name, held),
    keep: (name, ts) => keep(jobId, name, ts, held),
    // The other job's root, from Redis: the held copy is this job's thread alone.
    rootOf: (otherJobId) => kept(otherJobId, THREAD_ROOT, undefined),
  });
}

export type MessageBook = ReturnType<typeof createMessageBook>;
