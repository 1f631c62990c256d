import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import type { HelmReleaseState } from '../ports/kube-gateway.js';
import { CILIUM_RELEASE, fluxArgv, runReleaseTool } from './release-tools.js';

/** Set once this job suspended (or found suspended) Flux's `cilium` HelmRelease: it resumes it after a good verify. */
export const FLUX_SUSPENDED_FACT = 'fluxSuspended';

/** Why a job that ended well still leaves Flux suspended: status, the App Home and the reminder say it. */
export const FLUX_KEPT_REASON_FACT = 'fluxKeptSuspendedReason';

const HELM_RELEASE = `HelmRelease ${CILIUM_RELEASE.namespace}/${CILIUM_RELEASE.name}`;

export const resumeFluxCommand = (cluster: string) => `/cluster cilium ${cluster} --resume-flux`;

async function readRelease(ctx: StepContext): Promise<HelmReleaseState | undefined> {
  return ctx.kube.readHelmRelease(CILIUM_RELEASE.namespace, CILIUM_RELEASE.name);
}

async function runFlux(ctx: StepContext, verb: 'suspend' | 'resume'): Promise<void> {
  await runReleaseTool(ctx, fluxArgv(verb));
}

/**
 * Once Flux has adopted Cilium (its HelmRelease exists and is Ready), a Flux reconcile and this
 * job's helm changes would overwrite each other: Flux is suspended first. A job that fails after
 * this leaves it suspended on purpose (Flux would re-apply what just failed) and says so.
 */
async function suspendFlux(ctx: StepContext, cluster: string, after: Step): Promise<void> {
  if (ctx.facts.get<boolean>(FLUX_SUSPENDED_FACT) === true) return;
  const release = await readRelease(ctx);
  if (!release || (!release.ready && !release.suspended)) return;
  if (!release.suspended) await runFlux(ctx, 'suspend');
  await ctx.facts.set(FLUX_SUSPENDED_FACT, true);
  await ctx.progress(
    `Flux's ${HELM_RELEASE} ${release.suspended ? 'was suspended already' : 'suspended'} so Flux and this job do not overwrite each other; ` +
      `after a successful verify: ${after.title}; left suspended if the job fails (until \`${resumeFluxCommand(cluster)}\`)`,
  );
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
        return { status: 'skipped', summary: 'this job did not suspend Flux' };
      const release = await readRelease(ctx);
      if (!release) {
        if (!always) return { status: 'skipped', summary: `no ${HELM_RELEASE} any more` };
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `there is no ${HELM_RELEASE} on ${cluster} to resume`,
        );
      }
      if (!release.suspended) {
        // Resumed by hand meanwhile: nothing is left suspended, so status and the reminder stop saying so.
        await ctx.facts.set(FLUX_SUSPENDED_FACT, false);
        return { status: 'skipped', summary: `${HELM_RELEASE} is not suspended` };
      }
      await runFlux(ctx, 'resume');
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
        return { status: 'skipped', summary: 'this job did not suspend Flux' };
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
