import { formatDuration } from '../../config/parse-duration.js';
import { ClusterBotError } from '../../errors.js';
import { watchForChanges } from '../gates/change-waiter.js';
import { describePodProblem } from '../gates/describe-pod-problem.js';
import { CILIUM } from '../gates/gate.js';
import { describeDaemonSet, isRolledOut } from '../gates/rollout-status.js';
import type { Step, StepContext } from '../plan/step.js';
import type { PodState } from '../ports/kube-gateway.js';
import { CILIUM_BASELINE_FACT, type CiliumBaseline } from './cilium-baseline.js';
import { definitiveAgentFailure } from './definitive-agent-failure.js';

const POLL_MS = 1_000;
const CILIUM_WATCHES = [
  { kind: 'daemonset', namespace: CILIUM.namespace, name: CILIUM.name },
  { kind: 'pods', namespace: CILIUM.namespace, labelSelector: CILIUM.selector },
] as const;

/**
 * Runs beside cilium.yml until the signal ends it. The role waits on `rollout status` for up to
 * 10 minutes, so an agent that never comes up would hold the playbook that long and then fail it
 * without a name; this stops at the first agent of the newest revision that fails for good
 * (crash loop, image pull) at once, or that is not Ready within agentReady, naming pod, node and
 * container. A Kubernetes API blip is not a reason to stop.
 */
export async function watchForStuckAgent(ctx: StepContext): Promise<void> {
  const stuckFor = createStuckAgentClock(ctx.cluster.timeouts.agentReady);
  // Agents of the revision that ran before the playbook are not this rollout's: re-running cilium.yml
  // to fix a broken render must not be stopped at the broken agents it is about to replace.
  const before = ctx.facts.get<CiliumBaseline>(CILIUM_BASELINE_FACT)?.revisions.at(-1);
  const waiter = watchForChanges(ctx.kube, ctx.clock, CILIUM_WATCHES, ctx.signal);
  try {
    while (!ctx.signal.aborted) {
      const agents = await readAgents(ctx).catch(() => undefined);
      const now = ctx.clock.now();
      const ours = agents && (before === undefined || agents.newest !== before) ? agents.updated : [];
      for (const pod of ours) {
        await stopAtBrokenAgent(ctx, pod);
        const waited = stuckFor(pod, now);
        if (waited !== undefined) await stopAtAgent(ctx, pod, waited);
      }
      await waiter.wait(POLL_MS);
    }
  } finally {
    waiter.close();
  }
}

/** How long each agent has been seen not Ready, once that reaches `timeoutMs`; undefined before. */
function createStuckAgentClock(timeoutMs: number): (pod: PodState, now: number) => number | undefined {
  const firstSeenNotReady = new Map<string, number>();
  return (pod, now) => {
    if (pod.ready) {
      firstSeenNotReady.delete(pod.name);
      return undefined;
    }
    const since = firstSeenNotReady.get(pod.name) ?? now;
    firstSeenNotReady.set(pod.name, since);
    return now - since >= timeoutMs ? now - since : undefined;
  };
}

/** The agents not being deleted, and those of the newest revision in creation order. */
async function readAgents(ctx: StepContext) {
  const revisions = await ctx.kube.listRevisionHashes(CILIUM.namespace, CILIUM.selector);
  const newest = revisions.at(-1);
  const pods = (
    await ctx.kube.listPods({ namespace: CILIUM.namespace, labelSelector: CILIUM.selector })
  ).filter((pod) => !pod.deleting);
  // In creation order: agents that became Ready between two reads are still told one by one, as they rolled.
  const updated = pods
    .filter((pod) => pod.revisionHash === newest)
    .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));
  return { revisions, newest, pods, updated };
}

/**
 * Follows the Cilium DaemonSet rollout agent by agent and stops at the first agent that is not
 * Ready in time, naming the pod, its node and its failing container. When nothing was recreated it
 * proves so: same ControllerRevision and unchanged pod ages.
 */
export function ciliumRolloutStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'watch Cilium rollout',
    target: `${cluster}: DaemonSet kube-system/cilium, one agent at a time`,
    async run(ctx) {
      const baseline = ctx.facts.get<CiliumBaseline>(CILIUM_BASELINE_FACT);
      const waiter = watchForChanges(ctx.kube, ctx.clock, CILIUM_WATCHES, ctx.signal);
      try {
        return await followRollout(ctx, baseline, (ms) => waiter.wait(ms));
      } finally {
        waiter.close();
      }
    },
  };
}

async function followRollout(
  ctx: StepContext,
  baseline: CiliumBaseline | undefined,
  wait: (ms: number) => Promise<void>,
): Promise<{ status: 'succeeded'; summary: string }> {
  const timeout = ctx.cluster.timeouts.agentReady;
  const stuckFor = createStuckAgentClock(timeout);
  const reportedReady = new Set<string>();
  let lastProgressAt = ctx.clock.now();
  let lastObserved = '';
  for (;;) {
    const ds = await ctx.kube.readDaemonSet(CILIUM.namespace, CILIUM.name);
    if (!ds)
      throw new ClusterBotError('GATE_FAILED', 'DaemonSet kube-system/cilium not found after the playbook');
    const now = ctx.clock.now();
    lastObserved = describeDaemonSet(ds);
    // Until the controller has seen the newest spec (a rollback applied a moment ago), the newest
    // revision is still the one being replaced: judging its agents would stop at the very agent the
    // change is about to replace. Waiting here counts toward "no progress" like any other wait.
    if (ds.observedGeneration < ds.generation && now - lastProgressAt < timeout + timeout / 2) {
      await wait(POLL_MS);
      continue;
    }
    const { revisions, newest, pods, updated } = await readAgents(ctx);

    // Every agent that came up is reported before any broken one stops the rollout, whatever the
    // order the API lists them in: the thread shows how far the rollout got.
    for (const pod of updated) {
      if (pod.ready && !reportedReady.has(pod.name)) {
        reportedReady.add(pod.name);
        lastProgressAt = now;
        await ctx.progress(`agent ${pod.name} on ${pod.node} Ready (${reportedReady.size}/${ds.desired})`, {
          pod: pod.name,
          node: pod.node,
          from: (pod.node && baseline?.revisionOnNode?.[pod.node]) || baseline?.revisions.at(-1),
          to: pod.revisionHash,
          ready: true,
        });
      }
    }
    for (const pod of updated) {
      await stopAtBrokenAgent(ctx, pod);
      if (stuckFor(pod, now) !== undefined) await stopAtAgent(ctx, pod, timeout);
    }

    if (isRolledOut(ds) && pods.every((pod) => pod.ready && pod.revisionHash === newest)) {
      return { status: 'succeeded', summary: describeOutcome(baseline, revisions, pods, ds.desired) };
    }
    if (now - lastProgressAt >= timeout + timeout / 2) {
      const notReady = pods.find((pod) => !pod.ready);
      if (notReady) await stopAtAgent(ctx, notReady, now - lastProgressAt);
      await ctx.gateFailed(
        'Cilium rollout',
        `no progress for ${formatDuration(now - lastProgressAt)}: ${lastObserved}`,
      );
      throw new ClusterBotError(
        'GATE_TIMEOUT',
        `Cilium rollout made no progress for ${formatDuration(now - lastProgressAt)}: ${lastObserved}`,
      );
    }
    await wait(POLL_MS);
  }
}

/** An agent that fails for good stops the rollout now: waiting out agentReady would change nothing. */
async function stopAtBrokenAgent(ctx: StepContext, pod: PodState): Promise<void> {
  const failure = definitiveAgentFailure(pod);
  if (!failure) return;
  const observed =
    `${describePodProblem(pod, failure)}; stopped at once, without waiting out agentReady ` +
    `(${formatDuration(ctx.cluster.timeouts.agentReady)})`;
  await ctx.gateFailed('Cilium rollout', observed);
  throw new ClusterBotError('GATE_FAILED', `rollout stopped at a broken agent: ${observed}`, {
    details: { pod: pod.name, node: pod.node, problems: [failure] },
  });
}

async function stopAtAgent(ctx: StepContext, pod: PodState, waitedMs: number): Promise<never> {
  const observed = `${describePodProblem(pod)}; not Ready after ${formatDuration(waitedMs)}`;
  await ctx.gateFailed('Cilium rollout', observed);
  throw new ClusterBotError('GATE_FAILED', `rollout stopped at the first agent not Ready: ${observed}`, {
    details: { pod: pod.name, node: pod.node, problems: pod.problems },
  });
}

function describeOutcome(
  baseline: CiliumBaseline | undefined,
  revisions: readonly string[],
  pods: readonly PodState[],
  desired: number,
): string {
  if (!baseline || baseline.revisions.length === 0)
    return `${desired}/${desired} agents on the new revision and Ready`;
  const sameRevision = baseline.revisions.at(-1) === revisions.at(-1);
  const sameAges = pods.every((pod) => baseline.podsCreatedAt[pod.name] === pod.createdAt);
  if (sameRevision && sameAges) {
    return `no pod recreated: same ControllerRevision ${revisions.at(-1)}, all ${pods.length} agent ages unchanged (non-disruptive change)`;
  }
  return `${desired}/${desired} agents rolled to revision ${revisions.at(-1)} one at a time, all Ready`;
}
