import { checkAccess, isMember } from '../access/access-policy.js';
import { isClusterBotError } from '../errors.js';
import { requestCancel } from '../jobs/request-cancel.js';
import { describeCommand, type LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import { buildPlan } from '../lifecycle/plans/build-plan.js';
import { describePlan } from '../lifecycle/plans/describe-plan.js';
import type { ClusterService } from './cluster-service.js';
import { decideClick } from './decide-click.js';
import { summariseJob } from './job-summary.js';
import { readClusterOverviews, recentRecords } from './read-cluster-overview.js';
import { readPendingApprovals } from './read-pending-approvals.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

const DEDUP_SECONDS = 24 * 3_600;
const RECENT_JOBS = 10;

/** The one way in to the queue, the job records, the audit trail and the approvals. */
export function createClusterService(deps: ServiceDeps): ClusterService {
  const { world } = deps;
  const admit: ClusterService['admit'] = (actor, cluster) =>
    checkAccess(world, deps.members, actor, cluster === undefined ? undefined : world.clusters[cluster]);

  /** Turns a checked command into a job (or a "busy" refusal), audited either way. */
  const enqueue = async (
    actor: Parameters<ClusterService['submit']>[0],
    command: LifecycleCommand,
    queueIfBusy: boolean,
  ) => {
    const result = await deps.queue.enqueue({
      command,
      requestedBy: actor.userId,
      channel: actor.channelId,
      queueIfBusy,
    });
    const what = describeCommand(command);
    if (result.kind === 'busy') {
      const record = await deps.records.get(result.holderJobId);
      const holder = record ? await summariseJob(record, deps.threads) : { id: result.holderJobId };
      await deps.audit.record({
        at: deps.now(),
        who: actor.userId,
        action: 'refused',
        what: `${what}: busy`,
      });
      return { code: 'BUSY', cluster: command.cluster, holder, command: what } satisfies Refusal;
    }
    const { record, position } = result;
    await deps.audit.record({ at: deps.now(), who: actor.userId, action: 'command', what, jobId: record.id });
    return {
      kind: 'queued',
      number: record.number,
      cluster: command.cluster,
      command: what,
      position,
    } as const;
  };

  /** The plan the config builds for a command: its steps, or why it cannot be built. */
  const planOf = (command: LifecycleCommand): string | Refusal => {
    try {
      return describePlan(buildPlan(command, world));
    } catch (error) {
      if (isClusterBotError(error)) return { code: 'PLAN_INVALID', message: error.message };
      throw error;
    }
  };

  return {
    async takeCommand(actor) {
      if (await deps.rateLimit.take(actor.userId)) return undefined;
      return { code: 'RATE_LIMITED', perMinute: deps.rateLimit.perMinute };
    },
    async firstDelivery(key) {
      return (await deps.redis.set(deps.keys.dedup(key), '1', 'EX', DEDUP_SECONDS, 'NX')) !== null;
    },
    admit,
    async submit(actor, command, queueIfBusy) {
      const denied = await admit(actor, command.cluster);
      if (denied) return denied;
      const steps = planOf(command);
      if (typeof steps !== 'string') return steps;
      return enqueue(actor, command, queueIfBusy);
    },
    async plan(actor, command) {
      const denied = await admit(actor, command.cluster);
      if (denied) return denied;
      const steps = planOf(command);
      if (typeof steps !== 'string') return steps;
      // The steps come from the config alone; what the repo and the cluster would refuse takes a read-only job.
      const job = await enqueue(actor, { verb: 'plan', cluster: command.cluster, of: command }, false);
      return isRefusal(job) ? job : { kind: 'planned', steps, number: job.number };
    },
    async cancel(actor, jobNumber) {
      const denied = await admit(actor);
      if (denied) return denied;
      const record = await deps.records.get(`job-${jobNumber}`);
      if (!record) return { code: 'NO_SUCH_JOB', number: jobNumber };
      if (record.outcome) return { code: 'JOB_ENDED', number: record.number, outcome: record.outcome };
      const cluster = world.clusters[record.command.cluster]!;
      const allowed =
        actor.userId === record.requestedBy ||
        (await isMember(actor.userId, cluster.approvers, deps.members));
      if (!allowed) return { code: 'NOT_CANCELLER', cluster: cluster.name, number: record.number };
      await requestCancel(deps.redis, deps.keys, record.id, actor.userId);
      await deps.queue.promote(record.id);
      await deps.audit.record({
        at: deps.now(),
        who: actor.userId,
        action: 'cancel',
        what: describeCommand(record.command),
        jobId: record.id,
      });
      return { kind: 'cancelling', number: record.number };
    },
    async status(actor, only) {
      const denied = await admit(actor);
      if (denied) return denied;
      const clusters = Object.keys(world.clusters).filter((name) => only === undefined || name === only);
      return { kind: 'status', clusters: await readClusterOverviews(deps, clusters) };
    },
    async jobs(actor) {
      const denied = await admit(actor);
      if (denied) return denied;
      const records = await recentRecords(deps, RECENT_JOBS);
      return { kind: 'jobs', jobs: await Promise.all(records.map((r) => summariseJob(r, deps.threads))) };
    },
    async audit(actor, count) {
      const denied = await admit(actor);
      if (denied) return denied;
      return { kind: 'audit', entries: await deps.audit.recent(count) };
    },
    decide: (actor, click, show) => decideClick(deps, actor, click, show),
    async home(actor) {
      const denied = await admit(actor);
      if (denied) return denied;
      const overviews = await readClusterOverviews(deps, Object.keys(world.clusters));
      return {
        kind: 'home',
        clusters: await Promise.all(
          overviews.map(async (overview) => ({
            ...overview,
            approvals: await readPendingApprovals(deps, overview, actor.userId),
          })),
        ),
      };
    },
  };
}
