import type { WorldConfig } from '../../config/world-config.js';
import type { ApprovalPolicy, Step, StepContext } from '../plan/step.js';
import { bindingFingerprint } from './approval-binding.js';
import { opsCommandLine } from './ops-command-line.js';
import { type PlaybookInvocation, playbookArgv } from './playbook-invocation.js';
import { previewPlaybook } from './preview-playbook.js';
import { readRepoCommit } from './read-repo-commit.js';
import { repoPaths } from './repo-paths.js';
import { type PlaybookReport, runPlaybook } from './run-playbook.js';

export interface PlaybookApproval {
  readonly reason: string;
  readonly warning?: string | undefined;
  readonly mark?: string | undefined;
  /** Approval only when this says so (e.g. the cluster is not formed yet); always when absent. */
  readonly required?: ((ctx: StepContext) => Promise<boolean>) | undefined;
}

export interface PlaybookStepSpec {
  readonly id: string;
  readonly invocation: PlaybookInvocation;
  readonly target: string;
  readonly approval?: PlaybookApproval | undefined;
  /**
   * Watches the cluster while the playbook runs, until its signal ends; if it fails, the playbook
   * is stopped and the step fails with the watcher's reason (it knows more than the playbook).
   */
  readonly alongside?: ((ctx: StepContext) => Promise<void>) | undefined;
  /**
   * A read-only diagnostic (node-health.yml): it changes nothing, so it needs no approval and no
   * proof of its targets before it runs; `report` judges the finished run, host by host.
   */
  readonly diagnostic?: { readonly report: PlaybookReport } | undefined;
}

/** One ansible-playbook run on the ops host; a disruptive one is approved for one commit + argv. */
export function playbookStep(world: WorldConfig, spec: PlaybookStepSpec): Step {
  const argv = playbookArgv(spec.invocation);
  const cwd = repoPaths(world).ansible;
  return {
    id: spec.id,
    title: spec.invocation.playbook,
    target: spec.target,
    commandLine: opsCommandLine(world, cwd, argv),
    approval: spec.approval ? playbookApprovalPolicy(world, spec, argv) : undefined,
    async run(ctx) {
      const outcome = spec.alongside
        ? await runWatched(ctx, spec.invocation, spec.alongside)
        : await runPlaybook(ctx, spec.invocation, spec.diagnostic?.report);
      return { status: 'succeeded', summary: outcome };
    },
  };
}

async function runWatched(
  ctx: StepContext,
  invocation: PlaybookInvocation,
  watch: (ctx: StepContext) => Promise<void>,
): Promise<string> {
  const done = new AbortController();
  const watched = { ...ctx, signal: AbortSignal.any([ctx.signal, done.signal]) };
  let verdict: { readonly error: unknown } | undefined;
  const watching = watch(watched).catch((error: unknown) => {
    if (done.signal.aborted || ctx.signal.aborted) return;
    verdict = { error };
    done.abort(error);
  });
  try {
    return await runPlaybook(watched, invocation);
  } catch (error) {
    throw verdict ? verdict.error : error;
  } finally {
    done.abort();
    await watching;
  }
}

function playbookApprovalPolicy(world: WorldConfig, spec: PlaybookStepSpec, argv: string[]): ApprovalPolicy {
  const approval = spec.approval!;
  return {
    reason: approval.reason,
    warning: approval.warning,
    mark: approval.mark ?? '⚠',
    required: approval.required ?? (async () => true),
    currentCommit: readRepoCommit,
    async bind(ctx) {
      const commit = await readRepoCommit(ctx);
      const preview = await previewPlaybook(ctx, spec.invocation);
      return {
        commandLine: opsCommandLine(world, repoPaths(world).ansible, argv),
        targets: spec.target,
        commit,
        fingerprint: bindingFingerprint(commit, argv),
        preview,
      };
    },
  };
}
