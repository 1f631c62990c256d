import { checkAccess } from '../access/access-policy.js';
import type { Admission } from '../jobs/command-rate-limit.js';
import { isJobId, jobIdOf } from '../jobs/ports/job-id.js';
import { auditRefusal, isRightsRefusal } from './audit-refusal.js';
import type { Actor, ClusterService, Submitted } from './cluster-service.js';
import { followUpClaim } from './follow-up-claim.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

type Why = Extract<Refusal, { code: 'RERUN_REFUSED' }>['why'];

/** The outcomes a re-run picks up from: a job that stopped before its end. */
const RERUNNABLE: ReadonlySet<string> = new Set(['failed', 'cancelled']);

/**
 * `rerun <job>` and the **Re-run** button (`job`: its number typed, or the button's job id):
 * a new job of the same command, on behalf of whoever asked, which the worker runs as a re-run
 * (engine/carry-over.ts). Only an operator of the job's cluster may (submit checks the rights
 * again, as for the command itself); only a failed or cancelled job is re-run, and only once: a
 * small key per job (SET NX) holds its re-run, so two clicks or commands at once queue one job
 * (held a minute until the job is queued, then for the thread's life: follow-up-claim.ts).
 * Every refusal counts against the person's per-minute limit (taken here, or with the job); one for
 * want of rights is audited.
 */
export async function rerunJob(
  deps: ServiceDeps,
  service: Pick<ClusterService, 'submit' | 'admitCommand'>,
  actor: Actor,
  job: { readonly id: string } | { readonly number: string },
  // A click comes with no admission of its own: it counts against the clicker's limit all the same.
  admission: Admission = { userId: actor.userId },
): Promise<Submitted | Refusal> {
  const id = 'id' in job ? job.id : jobIdOf(Number(job.number));
  const record = isJobId(id) ? await deps.records.get(id) : undefined;
  const refuse = async (refusal: Refusal): Promise<Refusal> => {
    const limited = await service.admitCommand(admission);
    if (limited) return limited;
    if (isRightsRefusal(refusal)) {
      const what = record ? `re-run job #${record.number}` : 're-run a job';
      await auditRefusal(deps, actor, 'id' in job ? 'click-refused' : 'refused', what, refusal, record?.id);
    }
    return refusal;
  };
  const refused = (why: Why, facts: Omit<Extract<Refusal, { code: 'RERUN_REFUSED' }>, 'code' | 'why'> = {}) =>
    refuse({
      code: 'RERUN_REFUSED',
      why,
      number: record?.number ?? ('number' in job ? job.number : undefined),
      ...facts,
    });
  // Whoever may use the bot at all learns whether a job exists; its cluster's rights come next.
  const denied = await checkAccess(deps.world, deps.members, actor);
  if (denied) return refuse(denied);
  if (!record) return refused('no-such-job');
  const rights = await checkAccess(
    deps.world,
    deps.members,
    actor,
    deps.world.clusters[record.command.cluster],
  );
  if (rights) return refuse(rights);
  const { command } = record;
  if (command.verb === 'plan') return refused('plan-job');
  if (!record.outcome) return refused('not-ended');
  if (!RERUNNABLE.has(record.outcome)) return refused('not-failed', { outcome: record.outcome });
  const followUp = followUpClaim(deps, 'rerun', record.id);
  const holder = await followUp.claim();
  if (holder) return refused('already-rerun', { rerun: holder.number });
  const submitted = await service.submit(actor, command, false, admission, {
    jobId: record.id,
    number: record.number,
    channel: record.channel,
  });
  await followUp.settle(submitted);
  return submitted;
}
