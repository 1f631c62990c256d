import { ClusterBotError } from '../../errors.js';
import { clusterIdentityProblems, ownApiHosts } from '../ansible/cluster-identity-problems.js';
import { readClusterVar } from '../ansible/read-cluster-var.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { ApprovalPolicy, Step, StepContext } from '../plan/step.js';
import { findDetachedRun, opsPlace } from '../remote/exec-detached.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { inventoryHostAddresses } from '../repo/inventory-host-addresses.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { INVENTORY_FILE } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { CILIUM_BASELINE_FACT, readCiliumBaseline } from './cilium-baseline.js';
import { checkValueRules } from './cilium-value-rules.js';
import { valueAt } from './cilium-values.js';
import {
  describeRevision,
  parseHelmHistory,
  pickRollbackTarget,
  type RollbackTarget,
} from './helm-history.js';
import {
  HELM_HISTORY,
  helmGetValuesArgv,
  helmRollbackArgv,
  readReleaseTool,
  releaseToolOptions,
  runReleaseTool,
} from './release-tools.js';

export const ROLLBACK_REASON =
  'a Cilium rollback replaces the CNI agent on every node with the older revision, one at a time (maxUnavailable 1)';

/** Reads the release's history now and picks the revision: every step of a rollback agrees on it this way. */
export async function readRollbackTarget(
  ctx: StepContext,
  requested: number | undefined,
): Promise<RollbackTarget> {
  // helm runs with the cluster's own kubeconfig only once that is known to be no other cluster's.
  const identity = await clusterIdentityProblems(ctx);
  if (identity.length > 0)
    throw new ClusterBotError('PRECONDITION_FAILED', `cannot roll back Cilium: ${identity.join('; ')}`, {
      details: { problems: identity },
    });
  const history = parseHelmHistory(await readReleaseTool(ctx, HELM_HISTORY));
  const target = pickRollbackTarget(history, requested);
  if (typeof target === 'string')
    throw new ClusterBotError('PRECONDITION_FAILED', `cannot roll back Cilium: ${target}`, {
      details: { revisions: history.map((entry) => entry.revision) },
    });
  await checkRevisionValues(ctx, target.to.revision);
  return target;
}

/**
 * `helm rollback` restores a revision's values as they were, whatever the repo says now: rolling
 * back past the maxUnavailable commit brings back the chart default 2. So the revision's values
 * meet the preflight's rules first.
 */
async function checkRevisionValues(ctx: StepContext, revision: number): Promise<void> {
  const text = await readReleaseTool(ctx, helmGetValuesArgv(revision));
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `helm get values --revision ${revision} printed no JSON: ${text.slice(0, 200)}`,
    );
  }
  const record = values !== null && typeof values === 'object' ? (values as Record<string, unknown>) : {};
  const where = `revision ${revision}'s values (helm get values cilium --revision ${revision})`;
  const problems = checkValueRules(record, where);
  const host = valueAt(record, 'k8sServiceHost');
  const inventory = inventoryHostAddresses((await readRepoText(ctx, INVENTORY_FILE)) ?? '');
  const allowed = ownApiHosts(ctx, await readClusterVar(ctx, 'kube_vip_address'), inventory);
  if (typeof host === 'string' && host.trim() !== '' && !allowed.includes(host))
    problems.push(
      `k8sServiceHost is ${host} in ${where}, which is neither a server of ${ctx.cluster.name} ` +
        `nor its kube_vip_address (${allowed.join(', ')}): that revision points the agents at another cluster's API`,
    );
  if (problems.length > 0)
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `cannot roll back Cilium to revision ${revision}: ${problems.join('; ')}`,
      {
        details: { problems },
      },
    );
}

/** "from revision 3 (cilium-1.20.1, deployed) to revision 2 (cilium-1.20.1, superseded)" */
export function describeRollback({ from, to }: RollbackTarget): string {
  return `from ${describeRevision(from)} to ${describeRevision(to)}`;
}

/**
 * Which revision a rollback goes back to, read before anyone is asked: an explicit revision the
 * history does not hold is refused here, naming the ones it does. Saves the Cilium baseline too.
 */
export function ciliumRollbackTargetStep(id: string, cluster: string, requested: number | undefined): Step {
  return {
    id,
    title: 'pick the Cilium revision',
    target: `${cluster}: helm history ${requested === undefined ? '(the last good revision)' : `(revision ${requested})`}`,
    async run(ctx) {
      const target = await readRollbackTarget(ctx, requested);
      // The agents as they are before the rollback: the rollout watch tells each one old → new from
      // it (without it, every agent reads "(unchanged)"), as the preflight saves it for a rollout.
      await ctx.facts.set(CILIUM_BASELINE_FACT, await readCiliumBaseline(ctx).catch(() => undefined));
      return { status: 'succeeded', summary: `will roll back ${describeRollback(target)}` };
    },
    async check(ctx) {
      try {
        await readRollbackTarget(ctx, requested);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    },
  };
}

/**
 * `helm rollback cilium <revision> -n kube-system` on the ops host, approved as a rollout is: the
 * approval covers the commit, the exact argv and the revision it rolls back from, so a release that
 * moved since (another upgrade or rollback) asks again.
 */
export function ciliumRollbackStep(id: string, cluster: string, requested: number | undefined): Step {
  return {
    id,
    title: 'helm rollback cilium',
    target: `${cluster}: release kube-system/cilium`,
    approval: rollbackApproval(requested),
    // A rollback cut off halfway leaves the release pending: it outlives the worker and is followed.
    detached: true,
    async run(ctx) {
      const startedFact = `rollbackStarted:${id}`;
      const found = await findDetachedRun(ctx, opsPlace(ctx));
      // A rollback already started goes to the revision picked then: the history has moved since.
      const picked = found ? ctx.facts.get<RollbackTarget>(startedFact) : undefined;
      const target = picked ?? (await readRollbackTarget(ctx, requested));
      if (!found) await ctx.facts.set(startedFact, target);
      await ctx.progress(`rolling back ${describeRollback(target)}`);
      const argv = helmRollbackArgv(target.to.revision);
      await runReleaseTool(ctx, argv, { title: 'helm rollback cilium', found });
      return { status: 'succeeded', summary: `rolled back ${describeRollback(target)}` };
    },
  };
}

function rollbackApproval(requested: number | undefined): ApprovalPolicy {
  const identity = async (ctx: StepContext) => {
    const [commit, target, options] = await Promise.all([
      readRepoCommit(ctx),
      readRollbackTarget(ctx, requested),
      releaseToolOptions(ctx),
    ]);
    const argv = helmRollbackArgv(target.to.revision);
    return {
      target,
      commit,
      // Which cluster's release: the kubeconfig helm is given says it.
      commandLine: `${opsCommandLine(ctx.world, options.cwd, argv)} (KUBECONFIG=${options.env.KUBECONFIG})`,
      fingerprint: bindingFingerprint(commit, [...argv, `from ${target.from.revision}`]),
    };
  };
  return {
    reason: ROLLBACK_REASON,
    mark: '⚠',
    required: async () => true,
    async current(ctx) {
      const { commit, commandLine, fingerprint } = await identity(ctx);
      return { commit, commandLine, fingerprint };
    },
    async bind(ctx) {
      const { target, ...binding } = await identity(ctx);
      return { ...binding, targets: `${ctx.cluster.name}: Cilium ${describeRollback(target)}` };
    },
  };
}
