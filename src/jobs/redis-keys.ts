/** Every Redis key the bot owns, under one prefix so several bots (and tests) share a Redis safely. */
export function redisKeys(prefix: string) {
  return {
    bullPrefix: prefix,
    jobCounter: `${prefix}:jobs:counter`,
    job: (id: string) => `${prefix}:job:${id}`,
    steps: (id: string) => `${prefix}:job:${id}:steps`,
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
    approvals: (id: string) => `${prefix}:job:${id}:approvals`,
    recentJobs: `${prefix}:jobs:recent`,
    audit: `${prefix}:audit`,
    dedup: (key: string) => `${prefix}:dedup:${key}`,
    commandCount: (userId: string, minute: number) => `${prefix}:rate:${userId}:${minute}`,
    /**
     * The cluster's lease: the one mutating job that holds it. Its keys keep the old word `lock`: a
     * renamed key would let a process of the previous version and one of this version each take
     * the same cluster during a rolling deploy.
     */
    lease: (cluster: string) => `${prefix}:lock:${cluster}`,
    /** Which start of the lease's job holds it (a random id per processor run): a start taken over is fenced out. */
    leaseAttempt: (cluster: string) => `${prefix}:lock:${cluster}:attempt`,
    waiting: (cluster: string) => `${prefix}:lock:${cluster}:waiting`,
    lastVerify: (cluster: string) => `${prefix}:verify:${cluster}`,
    verifyAlerts: (cluster: string) => `${prefix}:verify:${cluster}:alerts`,
    verifyRunning: (cluster: string) => `${prefix}:verify:${cluster}:running`,
    /** Set once a verify has seen the cluster's nodes: from then on, an empty or silent API is an incident. */
    clusterFormed: (cluster: string) => `${prefix}:verify:${cluster}:formed`,
    /** The rollback job queued from a failed Cilium rollout's button: one rollback per failed job. */
    rollbackOf: (id: string) => `${prefix}:job:${id}:rollback`,
    /** The re-run queued from a failed or cancelled job (its button or `rerun`): one re-run per job. */
    rerunOf: (id: string) => `${prefix}:job:${id}:rerun`,
    cancel: (id: string) => `${prefix}:job:${id}:cancel`,
    /** The job page's copy of the log: a stream of redacted lines, readable by any process. */
    feedLog: (id: string) => `${prefix}:job:${id}:feed:log`,
    /** The job page's timeline: a stream of the job's lifecycle events with their times. */
    feedEvents: (id: string) => `${prefix}:job:${id}:feed:events`,
    /** Who opened the App Home lately (sorted set, scored by when), and a hash of what each was last shown. */
    homeWatchers: `${prefix}:home:watchers`,
    homeShown: `${prefix}:home:shown`,
    driftAlerts: (cluster: string) => `${prefix}:drift:${cluster}:alerts`,
    driftRunning: (cluster: string) => `${prefix}:drift:${cluster}:running`,
    /** Flux's cilium HelmRelease left suspended by a failed job: which job, since when (cleared once resumed). */
    fluxSuspended: (cluster: string) => `${prefix}:flux:${cluster}:suspended`,
    /** The host keys the bot keeps for a cluster's rebuilt nodes (a hash: node → the kept key, as JSON). */
    hostKeyPins: (cluster: string) => `${prefix}:host-keys:${cluster}`,
    /** One bucket of the Slack budget every process shares (a method, or chat.postMessage in one channel). */
    rateBudget: (bucket: string) => `${prefix}:slack-budget:${bucket}`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
