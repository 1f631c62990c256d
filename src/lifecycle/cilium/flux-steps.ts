import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import type { HelmReleaseState } from '../ports/kube-gateway.js';
import { CILIUM_BASELINE_FACT, readCiliumBaseline } from './cilium-baseline.js';
import { CILIUM_RELEASE, fluxArgv, runReleaseTool } from './release-tools.js';

/**
 * Set once this job suspended Flux's `cilium` HelmRelease, or took over a suspension an earlier bot
 * job left: it resumes it after a good verify, and the job's settle records it. Never for a
 * suspension a person made: that one is theirs to lift.
 */
export const FLUX_SUSPENDED_FACT = 'fluxSuspended';

/** Set once this job resumed Flux: what follows waits for Flux to settle and watches what it rolled. */
export const FLUX_RESUMED_FACT = 'fluxResumed';

/**
 * Written right before this job's `flux suspend` / `flux resume` runs: a worker killed between the
 * command and the fact that records it leaves this, and the next worker treats the command as done
 * (both are idempotent) instead of taking its own suspension for a person's or skipping the watch.
 */
export const FLUX_SUSPENDING_FACT = 'fluxSuspending';
export const FLUX_RESUMING_FACT = 'fluxResuming';

/** Seeded by the worker before the job runs: the number of the bot job whose suspension still stands (Redis `fluxSuspended`). */
export const FLUX_SUSPENDED_EARLIER_FACT = 'fluxSuspendedByEarlierJob';

/** Set when Flux was found suspended with no bot job behind it: this job leaves it as it was. */
export const FLUX_LEFT_ALONE_FACT = 'fluxSuspendedByPerson';

const LEFT_ALONE = 'Flux was already suspended before this job; left as it was';

/** Why a job that ended well still leaves Flux suspended: status, the App Home and the reminder say it. */
export const FLUX_KEPT_REASON_FACT = 'fluxKeptSuspendedReason';

export const HELM_RELEASE = `HelmRelease ${CILIUM_RELEASE.namespace}/${CILIUM_RELEASE.name}`;

export const resumeFluxCommand = (cluster: string) => `/cluster cilium ${cluster} --resume-flux`;

export async function readRelease(ctx: StepContext): Promise<HelmReleaseState | undefined> {
  return ctx.kube.readHelmRelease(CILIUM_RELEASE.namespace, CILIUM_RELEASE.name);
}

async function runFlux(ctx: StepContext, verb: 'suspend' | 'resume'): Promise<void> {
  await runReleaseTool(ctx, fluxArgv(verb));
}

/**
 * Once Flux has a HelmRelease for Cilium, a Flux reconcile and this job's helm changes would
 * overwrite each other: Flux is suspended first. Whether it is Ready does not matter: Flux's Helm
 * controller retries a failing release, so a release that is not Ready is the most live of all
 * (the incident's state). A job that fails after this leaves it suspended on purpose (Flux would
 * re-apply what just failed) and says so.
 */
async function suspendFlux(ctx: StepContext, cluster: string, after: Step): Promise<void> {
  if (ctx.facts.get<boolean>(FLUX_SUSPENDED_FACT) === true || ctx.facts.get<boolean>(FLUX_LEFT_ALONE_FACT))
    return;
  const release = await readRelease(ctx);
  if (!release) return;
  const earlierJob = ctx.facts.get<number>(FLUX_SUSPENDED_EARLIER_FACT);
  const suspending = ctx.facts.get<boolean>(FLUX_SUSPENDING_FACT) === true;
  if (release.suspended && earlierJob === undefined && !suspending) {
    // Someone suspended it by hand, for reasons of their own: not this job's to resume.
    await ctx.facts.set(FLUX_LEFT_ALONE_FACT, true);
    await ctx.progress(`${LEFT_ALONE} (${HELM_RELEASE})`);
    return;
  }
  if (!release.suspended) {
    await ctx.facts.set(FLUX_SUSPENDING_FACT, true);
    await runFlux(ctx, 'suspend');
  }
  await ctx.facts.set(FLUX_SUSPENDED_FACT, true);
  await ctx.progress(
    `Flux's ${HELM_RELEASE} ${release.suspended && !suspending ? `was left suspended by job #${earlierJob}` : 'suspended'} so Flux and this job do not overwrite each other; ` +
      `after a successful verify: ${after.title}; left suspended if the job fails (until \`${resumeFluxCommand(cluster)}\`)`,
  );
}

function notSuspendedByThisJob(ctx: StepContext): string {
  return ctx.facts.get<boolean>(FLUX_LEFT_ALONE_FACT) ? LEFT_ALONE : 'this job did not suspend Flux';
}

/** After a successful verify: Flux takes Cilium back. `always`: the `--resume-flux` command, which resumes whatever suspended it. */
export function fluxResumeStep(id: string, cluster: string, always = false): Step {
  return {
    id,
    title: 'resume Flux for cilium',
    target: `${cluster}: ${HELM_RELEASE}`,
    commandLine: fluxArgv('resume').join(' '),
    async run(ctx) {
      if (!always && ctx.facts.get<boolean>(FLUX_SUSPENDED_FACT) !== true)
        return { status: 'skipped', summary: notSuspendedByThisJob(ctx) };
      const release = await readRelease(ctx);
      if (!release) {
        if (!always) return { status: 'skipped', summary: `no ${HELM_RELEASE} any more` };
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `there is no ${HELM_RELEASE} on ${cluster} to resume`,
        );
      }
      const resuming = ctx.facts.get<boolean>(FLUX_RESUMING_FACT) === true;
      if (!release.suspended && !resuming) {
        // Resumed by hand meanwhile: nothing is left suspended, so status and the reminder stop saying so.
        await ctx.facts.set(FLUX_SUSPENDED_FACT, false);
        return { status: 'skipped', summary: `${HELM_RELEASE} is not suspended` };
      }
      // The agents as they run before Flux takes over: a new ControllerRevision after the resume is
      // Flux's own rollout (git's values differ from what ran), watched as any other.
      if (!resuming) {
        await ctx.facts.set(CILIUM_BASELINE_FACT, await readCiliumBaseline(ctx).catch(() => undefined));
        await ctx.facts.set(FLUX_RESUMING_FACT, true);
      }
      // A worker killed after the command finds the release resumed: its resume, already done.
      if (release.suspended) await runFlux(ctx, 'resume');
      await ctx.facts.set(FLUX_RESUMED_FACT, true);
      await ctx.facts.set(FLUX_SUSPENDED_FACT, false);
      return { status: 'succeeded', summary: `${HELM_RELEASE} resumed: Flux reconciles Cilium again` };
    },
  };
}

/**
 * After a rollback: Flux stays suspended although the job went well. The HelmRelease in git still
 * holds the values that failed, so resuming Flux would re-apply them and undo the rollback unwatched.
 */
export function fluxKeptSuspendedStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'keep Flux suspended for cilium',
    target: `${cluster}: ${HELM_RELEASE}`,
    async run(ctx) {
      if (ctx.facts.get<boolean>(FLUX_SUSPENDED_FACT) !== true)
        return { status: 'skipped', summary: notSuspendedByThisJob(ctx) };
      const reason = `rolled back; fix the repo, then \`${resumeFluxCommand(cluster)}\``;
      await ctx.facts.set(FLUX_KEPT_REASON_FACT, reason);
      return {
        status: 'succeeded',
        summary: `${HELM_RELEASE} stays suspended (Flux would re-apply the values that failed): ${reason}`,
      };
    },
  };
}

/**
 * The steps that change Cilium, run with Flux kept out: the first suspends Flux right before it
 * runs (after its approval, so a rejected job leaves Flux alone), and a failure of any of them
 * says in the thread that Flux stays suspended and how to resume it. Then `after` (resume Flux, or
 * for a rollback keep it suspended).
 */
export function underSuspendedFlux(cluster: string, steps: readonly Step[], after: Step): Step[] {
  const wrapped = steps.map((step, index) => ({
    ...step,
    async run(ctx: StepContext) {
      if (index === 0) await suspendFlux(ctx, cluster, after);
      try {
        return await step.run(ctx);
      } catch (error) {
        if (ctx.facts.get<boolean>(FLUX_SUSPENDED_FACT) === true) {
          await ctx.note(
            `Flux's ${HELM_RELEASE} stays suspended: ${step.title} failed, and Flux would re-apply what failed. ` +
              `Resume it once Cilium is sound: \`${resumeFluxCommand(cluster)}\``,
          );
        }
        throw error;
      }
    },
  }));
  return [...wrapped, after];
}
