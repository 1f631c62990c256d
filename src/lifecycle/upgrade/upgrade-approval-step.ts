import { ClusterBotError } from '../../errors.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { BindingIdentity, Step, StepContext } from '../plan/step.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { requireCleanCheckout } from '../repo/require-clean-checkout.js';
import { k3sCommandLines } from './k3s-invocation.js';
import { readUpgrade, type UpgradeReading } from './read-upgrade.js';
import { type ApprovedUpgrade, fromTo, UPGRADE_FACT } from './upgrade-facts.js';

/**
 * The upgrade's one approval, given before anything is touched: the target the repo sets at a clean
 * commit, and the servers whose version differs in the order they will go, each old → new. The
 * approved upgrade is kept as a job fact; a repo or a cluster that moved while the approval waited
 * voids it. Nothing to upgrade: no approval, and every server's steps are skipped.
 */
export function upgradeApprovalStep(id: string, cluster: string): Step {
  const current = async (ctx: StepContext) => {
    await requireCleanCheckout(ctx);
    const [commit, reading] = await Promise.all([readRepoCommit(ctx), readUpgrade(ctx)]);
    if (reading.problems.length > 0) {
      throw new ClusterBotError('PRECONDITION_FAILED', reading.problems.join('; '), {
        details: { failures: reading.problems },
      });
    }
    return { commit, reading, identity: identityOf(ctx, commit, reading) };
  };
  return {
    id,
    title: 'approve the upgrade',
    target: `${cluster}: each server whose k3s differs from k3s_version, one at a time`,
    approval: {
      reason:
        'upgrades k3s one server at a time: an etcd snapshot first, then for each server a quorum check, ' +
        'cordon + drain, k3s.yml on it alone, a wait for it Ready at the new version, uncordon and the verify gates',
      mark: '⚠',
      required: async (ctx) => (await readUpgrade(ctx)).upgrades.length > 0,
      current: async (ctx) => (await current(ctx)).identity,
      async bind(ctx) {
        const { commit, reading, identity } = await current(ctx);
        const approved: ApprovedUpgrade = { target: reading.target, commit, servers: reading.upgrades };
        await ctx.facts.set(UPGRADE_FACT, approved);
        return {
          ...identity,
          targets: reading.upgrades
            .map(({ server, from }) => `${server} (${fromTo(from, reading.target)})`)
            .join(', then '),
          consequence: `each server is cordoned, drained and restarted on k3s ${reading.target} (${reading.file}); the first that does not come back stops the upgrade there, the servers after it untouched`,
        };
      },
    },
    async run(ctx) {
      let approved = ctx.facts.get<ApprovedUpgrade>(UPGRADE_FACT);
      if (!approved) {
        // Not asked, because nothing differed when the engine decided (a saved answer a resumed job
        // keeps): what differs now would otherwise run on nobody's approval.
        const { commit, reading } = await current(ctx);
        if (reading.upgrades.length > 0) {
          throw new ClusterBotError(
            'PRECONDITION_FAILED',
            `something to upgrade appeared after no approval was needed (${reading.upgrades
              .map(({ server, from }) => `${server} ${fromTo(from, reading.target)}`)
              .join(', ')}); run upgrade again`,
          );
        }
        approved = { target: reading.target, commit, servers: reading.upgrades };
        await ctx.facts.set(UPGRADE_FACT, approved);
      }
      if (approved.servers.length === 0) {
        return {
          status: 'skipped',
          summary: `every server already runs ${approved.target}: nothing to upgrade`,
        };
      }
      const order = approved.servers.map(({ server, from }) => `${server} ${fromTo(from, approved.target)}`);
      return {
        status: 'succeeded',
        summary: `upgrade to ${approved.target} approved by ${ctx.approvedBy.join(', ') || 'nobody'}: ${order.join(', then ')}`,
      };
    },
  };
}

function identityOf(ctx: StepContext, commit: string, reading: UpgradeReading): BindingIdentity {
  const servers = reading.upgrades.map(({ server }) => server);
  return {
    commit,
    commandLine: k3sCommandLines(ctx.cluster, servers),
    fingerprint: bindingFingerprint(commit, [
      reading.target,
      ...reading.upgrades.map(({ server, from }) => `${server}:${from}`),
    ]),
  };
}
