import { checkAccess } from '../access/access-policy.js';
import { isClusterBotError } from '../errors.js';
import type { Admission } from '../jobs/command-rate-limit.js';
import { RECENT_KEPT } from '../jobs/job-record.js';
import type { LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import { describePlan } from '../lifecycle/plans/describe-plan.js';
import { buildPlan } from '../lifecycle/verbs/build-plan.js';
import { auditRefusal } from './audit-refusal.js';
import { cancelJob } from './cancel-job.js';
import type { Actor, ClusterService } from './cluster-service.js';
import { decideClick } from './decide-click.js';
import { enqueueCommand } from './enqueue-command.js';
import { homeWatchers } from './home-watchers.js';
import { summariseJob } from './job-summary.js';
import { readBacklog } from './read-backlog.js';
import { readClusterOverviews } from './read-cluster-overview.js';
import { readHomes } from './read-home.js';
import { readJobLog, readJobPage } from './read-job-page.js';
import { readableClusters } from './readable-clusters.js';
import { isRefusal, type Refusal } from './refusal.js';
import { rerunJob } from './rerun-job.js';
import { rollBackCilium } from './roll-back-cilium.js';
import type { ServiceDeps } from './service-deps.js';

const RECENT_JOBS = 10;

/** The one way in to the queue, the job records, the audit trail and the approvals. */
// Long only as a whole: the list of operations, each a few lines handing over to its own file.
export function createClusterService(deps: ServiceDeps): ClusterService {
  const { world } = deps;
  const admit: ClusterService['admit'] = (actor, cluster) =>
    checkAccess(world, deps.members, actor, cluster === undefined ? undefined : world.clusters[cluster]);

  /** The plan the config builds for a command: its steps, or why it cannot be built. */
  const planOf = (command: LifecycleCommand): string | Refusal => {
    try {
      return describePlan(buildPlan(command, world));
    } catch (error) {
      if (isClusterBotError(error)) return { code: 'PLAN_INVALID', message: error.message };
      throw error;
    }
  };

  const admitCommand: ClusterService['admitCommand'] = async (admission) => {
    const verdict = await deps.rateLimit.admit(admission);
    if (verdict === 'repeated') return { code: 'REPEATED_DELIVERY' };
    if (verdict === 'limited') return { code: 'RATE_LIMITED', perMinute: deps.rateLimit.perMinute };
    return undefined;
  };

  /**
   * A command's plan, or why it is refused before its job. The admission it would have handed to
   * its job's script is taken on a refusal, so the refusal counts against the sender and a repeat
   * of the delivery answers nothing (a rate limit or a repeat is the answer then).
   */
  const checkBeforeJob = async (
    actor: Actor,
    command: LifecycleCommand,
    admission: Admission | undefined,
  ): Promise<string | Refusal> => {
    const checked = (await admit(actor, command.cluster)) ?? planOf(command);
    if (typeof checked === 'string') return checked;
    return (admission && (await admitCommand(admission))) ?? checked;
  };

  const service: ClusterService = {
    admitCommand,
    firstDelivery: (key) => deps.claims.firstDelivery(key),
    admit,
    async submit(actor, command, queueIfBusy, admission, rerunOf) {
      const steps = await checkBeforeJob(actor, command, admission);
      if (typeof steps !== 'string') return steps;
      return enqueueCommand(deps, actor, command, queueIfBusy, admission, rerunOf);
    },
    async plan(actor, command, admission) {
      const steps = await checkBeforeJob(actor, command, admission);
      if (typeof steps !== 'string') return steps;
      // The steps come from the config alone; what the repo and the cluster would refuse takes a read-only job.
      const job = await enqueueCommand(
        deps,
        actor,
        { verb: 'plan', cluster: command.cluster, of: command },
        false,
        admission,
      );
      return isRefusal(job) ? job : { kind: 'planned', steps, number: job.number };
    },
    cancel: (actor, jobNumber) => cancelJob(deps, actor, jobNumber),
    async status(actor, only) {
      const scope = await readableClusters(deps, actor);
      if (isRefusal(scope)) return scope;
      if (only !== undefined && !scope.clusters.includes(only))
        return { code: 'NOT_OPERATOR', user: actor.userId, cluster: only };
      const clusters = scope.clusters.filter((name) => only === undefined || name === only);
      return { kind: 'status', clusters: await readClusterOverviews(deps, clusters) };
    },
    async jobs(actor) {
      const scope = await readableClusters(deps, actor);
      if (isRefusal(scope)) return scope;
      // Someone who reads some clusters only looks further back for as many of theirs.
      const recent = await deps.records.recent(scope.all ? RECENT_JOBS : RECENT_KEPT);
      const records = recent.filter((r) => scope.clusters.includes(r.command.cluster)).slice(0, RECENT_JOBS);
      return { kind: 'jobs', jobs: await Promise.all(records.map((r) => summariseJob(r, deps.threads))) };
    },
    async audit(actor, count) {
      const scope = await readableClusters(deps, actor);
      if (isRefusal(scope)) return scope;
      // An entry of no cluster (a refusal before one was named, a forged button) concerns them all.
      const entries = await deps.audit.recent(count, (entry) =>
        entry.cluster === undefined ? scope.all : scope.clusters.includes(entry.cluster),
      );
      return { kind: 'audit', entries };
    },
    decide: (actor, click, show) => decideClick(deps, actor, click, show),
    jobPage: (jobId) => readJobPage(deps, jobId),
    jobLog: (jobId, after, count) => readJobLog(deps, jobId, after, count),
    home: async (actor) => (await readHomes(deps, [actor]))[0]!,
    homes: (actors) => readHomes(deps, actors),
    ...homeWatchers(deps),
    rollBackCilium: (actor, jobId) => rollBackCilium(deps, service, actor, jobId),
    rerun: (actor, job, admission) => rerunJob(deps, service, actor, job, admission),
    auditRefusal: (actor, command, refusal) => auditRefusal(deps, actor, 'refused', command, refusal),
    backlog: () => readBacklog(deps),
  };
  return service;
}
