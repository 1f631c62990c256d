import type { BindingIdentity, Step, StepContext } from '../plan/step.js';
import type { ApprovalBinding, ApprovalDesk } from '../ports/approval-desk.js';
import type { StepRecord } from '../ports/checkpoint-store.js';
import type { PlanOutcome } from '../ports/reporter.js';

export type ApprovalVerdict =
  | {
      readonly kind: 'go';
      readonly approvalId?: string | undefined;
      /** Who approved it (absent when the step needs no approval). */
      readonly by?: readonly string[] | undefined;
    }
  | { readonly kind: 'wait'; readonly approvalId: string; readonly until: number }
  | { readonly kind: 'end'; readonly outcome: PlanOutcome; readonly summary: string };

const bindingKey = (stepId: string) => `binding:${stepId}`;
const requiredKey = (stepId: string) => `approvalRequired:${stepId}`;

/**
 * Decides whether a disruptive step may run now. An approval covers one run of one binding
 * (commit + argv): once a run starts it is used up, so an interrupted or failed disruptive step
 * never runs again without a fresh approval (a detached one interrupted while running is only
 * followed again), and a moved repo voids it.
 */
export async function passApproval(
  step: Step,
  ctx: StepContext,
  desk: ApprovalDesk,
  record: StepRecord | undefined,
  announce: (approvalId: string, until: number) => Promise<void>,
): Promise<ApprovalVerdict> {
  const policy = step.approval;
  if (!policy) return { kind: 'go' };
  let required = ctx.facts.get<boolean>(requiredKey(step.id));
  if (required === undefined) {
    required = await policy.required(ctx);
    await ctx.facts.set(requiredKey(step.id), required);
  }
  if (!required) return { kind: 'go' };

  const ask = async (extra: { warning?: string; previousCommit?: string } = {}): Promise<ApprovalVerdict> => {
    const binding = await policy.bind(ctx);
    await ctx.facts.set(bindingKey(step.id), binding);
    const { id, expiresAt } = await desk.request({
      stepId: step.id,
      stepTitle: step.title,
      cluster: ctx.cluster.name,
      reason: policy.reason,
      warning: [policy.warning, extra.warning].filter(Boolean).join('\n') || undefined,
      binding,
      minimumApprovals: policy.minimumApprovals,
      compare: policy.compare,
      previousCommit: extra.previousCommit,
    });
    await announce(id, expiresAt);
    return { kind: 'wait', approvalId: id, until: expiresAt };
  };

  const end = (outcome: PlanOutcome, summary: string) => endUnrun(step, ctx, outcome, summary);

  const state = await desk.state(step.id);
  switch (state.status) {
    case 'none':
    case 'void':
      return ask();
    case 'pending':
      if (ctx.clock.now() >= state.expiresAt) {
        await desk.expire(state.id);
        return end('expired', `approval for ${step.title} expired`);
      }
      return { kind: 'wait', approvalId: state.id, until: state.expiresAt };
    case 'rejected':
      return end('rejected', `${step.title} rejected by ${state.by}`);
    case 'expired':
      return end('expired', `approval for ${step.title} expired`);
    case 'approved': {
      // Its detached command outlived the worker: the step follows that run, the one approved.
      if (record?.data?.approvalId === state.id && record.status === 'running' && step.detached)
        return { kind: 'go', approvalId: state.id };
      if (record?.data?.approvalId === state.id) {
        const what = record.status === 'running' ? 'was interrupted while running' : `ended ${record.status}`;
        await desk.void(state.id, `${step.title} ${what}`);
        await ctx.note(`${step.title} ${what}; it will not run again without a fresh approval.`);
        return ask({
          warning: `This step ${what} (its approval was used). Approve only if running it again is safe.`,
        });
      }
      const binding = ctx.facts.get<ApprovalBinding>(bindingKey(step.id));
      if (policy.current && binding) {
        const now = await policy.current(ctx);
        if (now.fingerprint !== binding.fingerprint || state.fingerprint !== binding.fingerprint) {
          const changes = describeChanges(binding, now, policy.alsoBinds);
          await desk.void(state.id, changes.join('; '));
          return ask({
            warning: `The approved run is not what would run now: ${changes.join('; ')}.`,
            previousCommit: binding.commit !== now.commit ? binding.commit : undefined,
          });
        }
      }
      return { kind: 'go', approvalId: state.id, by: state.by };
    }
  }
}

/** The step will not run: what its binding left on the ops host goes (a failure to is said, not fatal). */
async function endUnrun(
  step: Step,
  ctx: StepContext,
  outcome: PlanOutcome,
  summary: string,
): Promise<ApprovalVerdict> {
  await step.approval
    ?.release?.(ctx)
    .catch((error: unknown) =>
      ctx.note(`${step.title}: could not remove what its approval left behind: ${(error as Error).message}`),
    );
  return { kind: 'end', outcome, summary };
}

function describeChanges(approved: BindingIdentity, now: BindingIdentity, alsoBinds?: string): string[] {
  const changes: string[] = [];
  if (approved.commit !== now.commit) {
    changes.push(`the infra repo moved from ${approved.commit?.slice(0, 12)} to ${now.commit?.slice(0, 12)}`);
  }
  if (approved.commandLine !== now.commandLine) {
    changes.push(`the command line was \`${approved.commandLine}\`, now \`${now.commandLine}\``);
  }
  if (changes.length > 0) return changes;
  return approved.fingerprint !== now.fingerprint && alsoBinds
    ? [`${alsoBinds} changed since the approval`]
    : ['what the approval covers changed'];
}
