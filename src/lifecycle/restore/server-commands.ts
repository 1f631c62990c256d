import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import {
  type RootCommandResult,
  type RootDetachedOptions,
  rootPath,
  runAsRoot,
  runAsRootDetached,
} from '../node/run-as-root.js';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { nodeTarget } from '../targets.js';

/** Whether k3s runs on the server (`systemctl is-active k3s`, which needs no root). */
export async function k3sActive(ctx: StepContext, server: NodeEntry): Promise<boolean> {
  const result = await captureRemote(ctx, nodeTarget(ctx, server), ['systemctl', 'is-active', 'k3s']);
  return result.exitCode === 0;
}

/** Whether a folder is there on the server (k3s's data dir is root's only). */
export async function folderThere(ctx: StepContext, server: NodeEntry, path: string): Promise<boolean> {
  const result = await runAsRoot(ctx, server, ['test', '-d', path], await rootPath(ctx, server));
  if (result.failure !== undefined) throw failed(server, `test -d ${path}`, result.failure);
  return result.exitCode === 0;
}

/** Runs argv as root on the server and refuses anything but exit 0; returns its output lines. */
export async function runOnServer(
  ctx: StepContext,
  server: NodeEntry,
  argv: readonly string[],
): Promise<readonly string[]> {
  return succeeded(server, argv, await runAsRoot(ctx, server, argv, await rootPath(ctx, server)));
}

/**
 * runOnServer for a command that must neither die with the worker nor run twice (the cluster
 * reset): detached on the server, followed again by a resumed step.
 */
export async function runOnServerDetached(
  ctx: StepContext,
  server: NodeEntry,
  argv: readonly string[],
  options: RootDetachedOptions,
): Promise<readonly string[]> {
  const path = await rootPath(ctx, server);
  return succeeded(server, argv, await runAsRootDetached(ctx, server, argv, path, undefined, options));
}

function succeeded(server: NodeEntry, argv: readonly string[], result: RootCommandResult): readonly string[] {
  if (result.exitCode !== 0) {
    const why = result.failure ?? result.lines.at(-1) ?? `exit ${result.exitCode}`;
    throw failed(server, argv.join(' '), why, result.exitCode);
  }
  return result.lines;
}

function failed(server: NodeEntry, command: string, why: string, exitCode?: number | null): ClusterBotError {
  return new ClusterBotError('COMMAND_FAILED', `${command} on ${server.name} failed (${why})`, {
    details: { server: server.name, exitCode },
  });
}
