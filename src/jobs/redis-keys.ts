import { deliveryKeys } from '../delivery/delivery-keys.js';

/**
 * Every Redis key the bot owns, under one prefix so several bots (and tests) share a Redis safely;
 * delivery's (its outboxes, the threads' state and the Slack budget) are its own, spread in here.
 */
export function redisKeys(prefix: string) {
  return {
    ...deliveryKeys(prefix),
    bullPrefix: prefix,
    jobCounter: `${prefix}:jobs:counter`,
    job: (id: string) => `${prefix}:job:${id}`,
    steps: (id: string) => `${prefix}:job:${id}:steps`,
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
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
