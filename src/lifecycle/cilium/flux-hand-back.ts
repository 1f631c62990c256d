import { formatDuration } from '../../config/parse-duration.js';
import { ClusterBotError } from '../../errors.js';
import { watchForChanges } from '../gates/change-waiter.js';
import { CILIUM } from '../gates/gate.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import type { ApprovalPolicy, Step, StepContext } from '../plan/step.js';
import type { HelmReleaseState } from '../ports/kube-gateway.js';
import { CILIUM_BASELINE_FACT, type CiliumBaseline } from './cilium-baseline.js';
import { ciliumRolloutStep } from './cilium-rollout-step.js';
import { FLUX_RESUMED_FACT, fluxResumeStep, HELM_RELEASE, readRelease } from './flux-steps.js';

const POLL_MS = 1_000;

/** Set by the settle step when Flux's reconcile made a new ControllerRevision: a second rollout. */
const FLUX_ROLLED_FACT = 'fluxRolledCilium';

const notResumed = { status: 'skipped', summary: 'Flux was not resumed by this job' } as const;

/**
 * Handing Cilium back to Flux: resume, then wait until the HelmRelease is Ready at the generation
 * the resume made (Flux has reconciled from git); if that applied other values, the DaemonSet has
 * a new ControllerRevision, watched agent by agent as any rollout; then the verify gates. Ids are
 * `resumeId` and three after it (`<resumeId>-settled`, `-rollout`, `-verify`).
 */
export function fluxHandBack(
  resumeId: string,
  cluster: string,
  options: { always?: boolean; approval?: ApprovalPolicy } = {},
): Step[] {
  const resume = fluxResumeStep(resumeId, cluster, options.always);
  const rollout = ciliumRolloutStep(`${resumeId}-rollout`, cluster);
  const verify = verifyGatesStep(`${resumeId}-verify`, cluster);
  return [
    options.approval ? { ...resume, approval: options.approval } : resume,
    fluxSettledStep(`${resumeId}-settled`, cluster),
    {
      ...rollout,
      title: "watch Flux's Cilium rollout",
      run: async (ctx) =>
        ctx.facts.get<boolean>(FLUX_ROLLED_FACT) === true
          ? rollout.run(ctx)
          : { status: 'skipped', summary: 'Flux applied no new agent template: no pod to watch' },
    },
    {
      ...verify,
      run: async (ctx) => (ctx.facts.get<boolean>(FLUX_RESUMED_FACT) === true ? verify.run(ctx) : notResumed),
    },
  ];
}

function fluxSettledStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'wait for Flux to settle cilium',
    target: `${cluster}: ${HELM_RELEASE} Ready at its new generation`,
    async run(ctx) {
      if (ctx.facts.get<boolean>(FLUX_RESUMED_FACT) !== true) return notResumed;
      const before = ctx.facts.get<CiliumBaseline>(CILIUM_BASELINE_FACT)?.revisions.at(-1);
      const waiter = watchForChanges(
        ctx.kube,
        ctx.clock,
        [{ kind: 'daemonset', namespace: CILIUM.namespace, name: CILIUM.name }],
        ctx.signal,
      );
      try {
        return await waitUntilSettled(ctx, before, (ms) => waiter.wait(ms));
      } finally {
        waiter.close();
      }
    },
  };
}

/**
 * Settled: Ready with observedGeneration equal to generation (a Ready condition from before the
 * resume says nothing). A new ControllerRevision ends the wait early: Flux is rolling the agents, and
 * the rollout watch stops at a bad agent sooner than this wait would time out.
 */
async function waitUntilSettled(
  ctx: StepContext,
  before: string | undefined,
  wait: (ms: number) => Promise<void>,
): Promise<{ status: 'succeeded'; summary: string }> {
  const timeout = ctx.cluster.timeouts.gate;
  const start = ctx.clock.now();
  for (;;) {
    const release = await readRelease(ctx);
    if (!release) throw new ClusterBotError('GATE_FAILED', `${HELM_RELEASE} is gone after the resume`);
    const newest = (await ctx.kube.listRevisionHashes(CILIUM.namespace, CILIUM.selector)).at(-1);
    const rolled = newest !== undefined && before !== undefined && newest !== before;
    if (rolled) {
      await ctx.facts.set(FLUX_ROLLED_FACT, true);
      return {
        status: 'succeeded',
        summary: `Flux's reconcile rolls the agents from revision ${before} to ${newest}: watched agent by agent next`,
      };
    }
    if (settled(release)) {
      return {
        status: 'succeeded',
        summary: `${HELM_RELEASE} Ready at generation ${release.generation}; same ControllerRevision ${newest ?? 'none'}`,
      };
    }
    const waited = ctx.clock.now() - start;
    if (waited >= timeout) {
      const observed = `${HELM_RELEASE} not settled after ${formatDuration(waited)}: ${describeRelease(release)}`;
      await ctx.gateFailed('Flux reconcile', observed);
      throw new ClusterBotError('GATE_TIMEOUT', observed);
    }
    await wait(POLL_MS);
  }
}

function settled(release: HelmReleaseState): boolean {
  return release.ready && release.observedGeneration === release.generation;
}

function describeRelease(release: HelmReleaseState): string {
  return `Ready ${release.ready ? 'True' : 'False'}, observedGeneration ${release.observedGeneration} of generation ${release.generation}`;
}
