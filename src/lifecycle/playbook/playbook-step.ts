import type { WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import { allInOrder } from '../all-in-order.js';
import { type PlaybookInvocation, playbookArgv } from '../ansible/playbook-invocation.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { ApprovalPolicy, Step, StepContext } from '../plan/step.js';
import type { Precondition } from '../preconditions/precondition.js';
import { requirePreconditions, requireRepoAnsibleConfig } from '../preconditions/preconditions-step.js';
import { collectRefusals, reasonsOf, refusalsOf } from '../preconditions/refusals-of.js';
import { findDetachedRun, opsPlace } from '../remote/exec-detached.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { requireCleanCheckout } from '../repo/require-clean-checkout.js';
import { repoPaths } from '../repo-paths.js';
import { ansibleToolchain } from './ansible-toolchain.js';
import { checkSyntax } from './check-syntax.js';
import { previewPlaybook } from './preview-playbook.js';
import { proveTargets } from './prove-targets.js';
import { type PlaybookReport, type RunPlaybookOptions, runPlaybook } from './run-playbook.js';

export interface PlaybookApproval {
  readonly reason: string;
  readonly warning?: string | undefined;
  readonly mark?: string | undefined;
  /** Approval only when this says so (e.g. the cluster is not formed yet); always when absent. */
  readonly required?: ((ctx: StepContext) => Promise<boolean>) | undefined;
  /**
   * Checks that must pass at the commit being approved, run again whenever approval is asked again;
   * what it says is shown in the approval.
   */
  readonly preflight?: ((ctx: StepContext) => Promise<string>) | undefined;
}

export interface PlaybookStepSpec {
  readonly id: string;
  readonly invocation: PlaybookInvocation;
  readonly target: string;
  /**
   * The nodes the run must touch, exactly: proven with `--list-hosts` before it runs. A playbook
   * that only reads (verify.yml) says so and has nothing to prove.
   */
  readonly hosts: readonly string[] | 'read-only';
  /** k3s.yml re-joining `hosts`: the founder play's pattern, which must target none of them. */
  readonly founderPlay?: string | undefined;
  /**
   * Repo rules this run depends on (the founder for k3s.yml, the Flux path for flux-bootstrap.yml),
   * checked again right before it runs and whenever its approval is asked: the repo may have moved
   * since the plan's preconditions passed.
   */
  readonly recheck?: readonly Precondition[] | undefined;
  readonly approval?: PlaybookApproval | undefined;
  /**
   * Watches the cluster while the playbook runs, until its signal ends; if it fails, the playbook
   * is stopped and the step fails with the watcher's reason (it knows more than the playbook).
   */
  readonly alongside?: ((ctx: StepContext) => Promise<void>) | undefined;
  /**
   * Judges the finished run instead of the default (any failed host fails the step): a read-only
   * diagnostic (node-health.yml) reports host by host and proves its targets from the recap.
   */
  readonly report?: PlaybookReport | undefined;
  /** A re-run may skip it once done (Step.carryOver): only the plans that know it is safe say so. */
  readonly carryOver?: boolean | undefined;
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
    // A playbook that changes nodes outlives the worker; a read-only one is simply run again.
    detached: spec.hosts !== 'read-only',
    carryOver: spec.carryOver,
    approval: spec.approval ? playbookApprovalPolicy(world, spec, argv) : undefined,
    check: (ctx) =>
      refusalsOf([
        () => requireRepoAnsibleConfig(ctx),
        async () => (spec.approval ? requireCleanCheckout(ctx) : undefined),
        () => checkSyntax(ctx, spec.invocation),
        async () =>
          spec.hosts !== 'read-only'
            ? proveTargets(ctx, spec.invocation, spec.hosts, spec.founderPlay)
            : undefined,
      ]),
    async run(ctx) {
      const detached =
        spec.hosts === 'read-only' ? undefined : { found: await findDetachedRun(ctx, opsPlace(ctx)) };
      // A run already started was checked before it started: what the repo says now cannot stop it.
      if (!detached?.found) {
        await requireRepoAnsibleConfig(ctx);
        await requirePreconditions(ctx, spec.recheck ?? []);
        if (spec.hosts !== 'read-only')
          await ctx.progress(await proveTargets(ctx, spec.invocation, spec.hosts, spec.founderPlay));
      }
      const options = { report: spec.report, detached };
      const outcome = spec.alongside
        ? await runWatched(ctx, spec.invocation, spec.alongside, options)
        : await runPlaybook(ctx, spec.invocation, options);
      return { status: 'succeeded', summary: outcome };
    },
  };
}

async function runWatched(
  ctx: StepContext,
  invocation: PlaybookInvocation,
  watch: (ctx: StepContext) => Promise<void>,
  options: RunPlaybookOptions,
): Promise<string> {
  const done = new AbortController();
  const watched = { ...ctx, signal: AbortSignal.any([ctx.signal, done.signal]) };
  // The watcher's alert goes out only when its verdict fails the step: one that lands as the playbook
  // ends is dropped with its verdict (the rollout step after it looks again), never alerted twice.
  let alert: [gate: string, observed: string] | undefined;
  const watcher = {
    ...watched,
    gateFailed: async (gate: string, observed: string) => {
      alert = [gate, observed];
    },
  };
  let verdict: { readonly error: unknown } | undefined;
  const watching = watch(watcher).catch((error: unknown) => {
    if (done.signal.aborted || ctx.signal.aborted) return;
    verdict = { error };
    done.abort(error);
  });
  try {
    return await runPlaybook(watched, invocation, options);
  } catch (error) {
    if (!verdict) throw error;
    if (alert) await ctx.gateFailed(...alert);
    throw verdict.error;
  } finally {
    done.abort();
    await watching;
  }
}

function playbookApprovalPolicy(world: WorldConfig, spec: PlaybookStepSpec, argv: string[]): ApprovalPolicy {
  const approval = spec.approval!;
  const commandLine = opsCommandLine(world, repoPaths(world).ansible, argv);
  const current = async (ctx: StepContext) => {
    const [, commit, toolchain] = await allInOrder([
      requireCleanCheckout(ctx),
      readRepoCommit(ctx),
      ansibleToolchain(ctx),
    ]);
    return { commit, commandLine, fingerprint: bindingFingerprint(commit, [...argv, toolchain]) };
  };
  return {
    reason: approval.reason,
    warning: approval.warning,
    mark: approval.mark ?? '⚠',
    alsoBinds: 'Ansible on the ops host (its version, its settings or its collections)',
    required: approval.required ?? (async () => true),
    current,
    async bind(ctx) {
      // Every reason to refuse at once: fixing one only to meet the next is what a refusal must spare.
      let identity: Awaited<ReturnType<typeof current>> | undefined;
      let preflight: string | undefined;
      const refusals = await collectRefusals([
        async () => {
          identity = await current(ctx);
        },
        () => requireRepoAnsibleConfig(ctx),
        async () => {
          await checkSyntax(ctx, spec.invocation);
          // --list-hosts of a playbook that does not parse says the same again.
          if (spec.hosts !== 'read-only')
            await proveTargets(ctx, spec.invocation, spec.hosts, spec.founderPlay);
        },
        () => requirePreconditions(ctx, spec.recheck ?? []),
        async () => {
          preflight = await approval.preflight?.(ctx);
        },
      ]);
      if (refusals.length === 1) throw refusals[0];
      if (refusals.length > 1) {
        const failures = refusals.flatMap(reasonsOf);
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `${spec.invocation.playbook} was not put up for approval, for ${failures.length} reasons: ${failures.join('; ')}`,
          { details: { failures } },
        );
      }
      const preview = await previewPlaybook(ctx, spec.invocation);
      return { ...identity!, targets: spec.target, preview, ...(preflight ? { preflight } : {}) };
    },
  };
}
