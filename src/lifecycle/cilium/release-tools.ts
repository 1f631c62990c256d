import { ClusterBotError } from '../../errors.js';
import { clusterKubeconfigEnv } from '../ansible/cluster-kubeconfig-env.js';
import type { StepContext } from '../plan/step.js';
import { captureRemoteOrFail } from '../remote/capture-remote.js';
import { execOnOpsDetached, type FoundRun } from '../remote/exec-detached.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

/** The Cilium release as helm and Flux name it (the role's cilium_namespace). */
export const CILIUM_RELEASE = { name: 'cilium', namespace: 'kube-system' } as const;

export const HELM_HISTORY = [
  'helm',
  'history',
  CILIUM_RELEASE.name,
  '-n',
  CILIUM_RELEASE.namespace,
  '-o',
  'json',
];
export const HELM_GET_VALUES = [
  'helm',
  'get',
  'values',
  CILIUM_RELEASE.name,
  '-n',
  CILIUM_RELEASE.namespace,
  '-o',
  'json',
];
/** `helm get values` of one revision: what a rollback to it would restore. */
export const helmGetValuesArgv = (revision: number): string[] => [
  ...HELM_GET_VALUES.slice(0, 4),
  '--revision',
  String(revision),
  ...HELM_GET_VALUES.slice(4),
];
export const helmRollbackArgv = (revision: number): string[] => [
  'helm',
  'rollback',
  CILIUM_RELEASE.name,
  String(revision),
  '-n',
  CILIUM_RELEASE.namespace,
];
export const fluxArgv = (verb: 'suspend' | 'resume'): string[] => [
  'flux',
  verb,
  'helmrelease',
  CILIUM_RELEASE.name,
  '-n',
  CILIUM_RELEASE.namespace,
];

/** Where helm and flux run: the ops host, in the repo, with the cluster's own kubeconfig. */
export async function releaseToolOptions(ctx: StepContext) {
  return { cwd: repoPaths(ctx.world).root, env: await clusterKubeconfigEnv(ctx) };
}

/** Runs a short helm/flux read on the ops host; a non-zero exit fails, naming the command and its error. */
export async function readReleaseTool(ctx: StepContext, argv: readonly string[]): Promise<string> {
  return captureRemoteOrFail(ctx, opsTarget(ctx.world), argv, await releaseToolOptions(ctx));
}

/**
 * Runs a helm/flux command that changes something, its output going to the job's log as it comes;
 * a non-zero exit fails, naming the command and its last lines. With `detached`, it runs detached on
 * the ops host and a resumed step follows the run it found (execOnOpsDetached).
 */
export async function runReleaseTool(
  ctx: StepContext,
  argv: readonly string[],
  detached?: { readonly title: string; readonly found: FoundRun },
): Promise<void> {
  const options = await releaseToolOptions(ctx);
  const lines: string[] = [];
  const request = {
    argv,
    ...options,
    timeoutMs: ctx.cluster.timeouts.nodeCommand,
    signal: ctx.signal,
    onLine: async (line: string) => {
      lines.push(line);
      await ctx.output(line);
    },
  };
  const result = detached
    ? await execOnOpsDetached(ctx, detached.title, request, detached.found)
    : await ctx.shell.exec(opsTarget(ctx.world), request);
  if (result.exitCode !== 0) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${argv.join(' ')} exited ${result.exitCode}: ${lines.slice(-5).join(' ')}`,
      { details: { exitCode: result.exitCode } },
    );
  }
}
