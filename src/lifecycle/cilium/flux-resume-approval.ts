import { bindingFingerprint } from '../approval-binding.js';
import type { ApprovalPolicy, Step, StepContext } from '../plan/step.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { HELM_RELEASE } from './flux-steps.js';
import { fluxArgv, releaseToolOptions } from './release-tools.js';

export const RESUME_FLUX_REASON =
  'Flux re-applies the values git holds now: where they differ from what runs, that is a Cilium rollout (one agent at a time, maxUnavailable 1)';

/**
 * `--resume-flux` is approved as a rollout is: bound to the commit Flux would apply and the exact
 * command, and the approval shows the Cilium preflight of the values git holds at that commit.
 */
export function fluxResumeApproval(cluster: string, preflight: Step): ApprovalPolicy {
  const argv = fluxArgv('resume');
  const identity = async (ctx: StepContext) => {
    const [commit, options] = await Promise.all([readRepoCommit(ctx), releaseToolOptions(ctx)]);
    return {
      commit,
      commandLine: `${opsCommandLine(ctx.world, options.cwd, argv)} (KUBECONFIG=${options.env.KUBECONFIG})`,
      fingerprint: bindingFingerprint(commit, argv),
    };
  };
  return {
    reason: RESUME_FLUX_REASON,
    mark: '⚠',
    required: async () => true,
    current: identity,
    async bind(ctx) {
      const binding = await identity(ctx);
      const verdict = await preflight.run(ctx);
      return { ...binding, targets: `${cluster}: ${HELM_RELEASE}`, preflight: verdict.summary };
    },
  };
}
