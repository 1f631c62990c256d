/**
 * The Redis keys delivery owns. They sit under the bot's one prefix (src/jobs/redis-keys.ts spreads
 * them into its own), so on a Redis Cluster they share the slot of every other key of the bot.
 */
export function deliveryKeys(prefix: string) {
  return {
    /** A job's thread state (its board), saved with the operations it explains. */
    board: (id: string) => `${prefix}:job:${id}:board`,
    /** The ts of the thread's messages the edge edits later (its root, each step's output tail), once sent. */
    threadMessages: (id: string) => `${prefix}:job:${id}:thread:messages`,
    /** The thread's outbox: what is still to be sent to it, oldest first (a list of the edge's operations). */
    outbox: (id: string) => `${prefix}:job:${id}:outbox`,
    /** The outbox's appender (a hash: its stream and the number of the next operation it may append). */
    outboxSeq: (id: string) => `${prefix}:job:${id}:outbox:seq`,
    /** Which process is sending a job's outbox (SET NX PX, renewed while it does). */
    outboxLease: (id: string) => `${prefix}:job:${id}:outbox:lease`,
    /** The jobs whose outbox is not empty: where a process looks for outboxes a dead one left. */
    outboxes: `${prefix}:outboxes`,
    /** One bucket of the Slack budget every process shares (a method, or chat.postMessage in one channel). */
    rateBudget: (bucket: string) => `${prefix}:slack-budget:${bucket}`,
  };
}

export type DeliveryKeys = ReturnType<typeof deliveryKeys>;
