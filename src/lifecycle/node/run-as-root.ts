import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import { ansibleBecomeArgv } from '../ansible/ansible-become-argv.js';
import { ansibleEnv } from '../ansible/ansible-env.js';
import { parseAdhocCommand } from '../ansible/parse-adhoc-command.js';
import type { StepContext } from '../plan/step.js';
import { quoteArgv } from '../quote-argv.js';
import { DETACHED_NODES_FACT, nodeDetachedFolder } from '../remote/detached-folder.js';
import {
  type DetachedPlace,
  execDetached,
  type FoundRun,
  findDetachedRun,
  opsPlace,
} from '../remote/exec-detached.js';
import { privileged } from '../remote/node-commands.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { rootWithoutPassword } from '../remote/root-without-password.js';
import { repoPaths } from '../repo-paths.js';
import { nodeTarget, opsTarget } from '../targets.js';

/** How a root command reaches a node: the bot's own login, or the ops host's Ansible with become. */
export type RootPath = 'ssh' | 'ansible';

export interface RootDetachedOptions {
  /** How long it may run; default: the cluster's nodeCommand. */
  readonly timeoutMs?: number;
  /**
   * Each line as it is followed on the bot's own login. A resumed step gets only the lines after
   * those already shown (the Ansible path's result holds them all), so what a line proves is kept
   * from here.
   */
  readonly onLine?: (line: string) => Promise<void> | void;
}

export interface RootCommandResult {
  readonly exitCode: number | null;
  /** Its output (stdout, then stderr on the Ansible path), each line also given to ctx.output. */
  readonly lines: readonly string[];
  /** Why it never ran (Ansible's become or module failure); undefined when it ran. */
  readonly failure?: string;
}

/**
 * Where root comes from on `node`: the bot's login when it is root or its sudo needs no password;
 * otherwise only the ops host's Ansible, which holds the become password through the vault.
 */
export async function rootPath(ctx: StepContext, node: NodeEntry): Promise<RootPath> {
  return (await rootWithoutPassword(ctx, nodeTarget(ctx, node))) ? 'ssh' : 'ansible';
}

/** The command line people are shown (in an approval, the log) for argv run as root on `node`. */
export function rootCommandLine(
  ctx: StepContext,
  node: NodeEntry,
  path: RootPath,
  argv: readonly string[],
): string {
  if (path === 'ssh')
    return `[${ctx.cluster.nodeSsh.user}@${node.name}] ${quoteArgv(privileged(ctx.cluster, argv))}`;
  return opsCommandLine(ctx.world, repoPaths(ctx.world).ansible, ansibleBecomeArgv(node.name, argv));
}

/**
 * Runs argv as root on `node` by the path it has (rootPath). On the Ansible path the output comes
 * when the command ends (ad-hoc prints one result per host); an unreachable node is SSH_UNREACHABLE,
 * as the bot's own SSH would say. Read-only commands; a mutating one is runAsRootDetached.
 */
export async function runAsRoot(
  ctx: StepContext,
  node: NodeEntry,
  argv: readonly string[],
  path: RootPath,
): Promise<RootCommandResult> {
  const lines: string[] = [];
  if (path === 'ssh') {
    const result = await ctx.shell.exec(nodeTarget(ctx, node), {
      argv: privileged(ctx.cluster, argv),
      timeoutMs: ctx.cluster.timeouts.nodeCommand,
      signal: ctx.signal,
      onLine: (line) => {
        lines.push(line);
        return ctx.output(line);
      },
    });
    return { exitCode: result.exitCode, lines };
  }
  const stdout: string[] = [];
  const stderr: string[] = [];
  const result = await ctx.shell.exec(opsTarget(ctx.world), {
    ...(await adhocRequest(ctx, node, argv)),
    onLine: (line, stream) => {
      (stream === 'stdout' ? stdout : stderr).push(line);
    },
  });
  return adhocResult(ctx, node, stdout, stderr, result.exitCode);
}

/**
 * Where a mutating root command on `node` runs detached: over the bot's login on the node itself,
 * in the step's root-only folder there (nodeDetachedFolder, reached as root); through Ansible the
 * ad-hoc run is the detached command, on the ops host.
 */
export function rootPlace(ctx: StepContext, node: NodeEntry, path: RootPath): DetachedPlace {
  if (path === 'ansible') return opsPlace(ctx);
  return {
    target: nodeTarget(ctx, node),
    folder: nodeDetachedFolder(ctx),
    runAs: privileged(ctx.cluster, []),
  };
}

/**
 * runAsRoot for a command that changes the node: it runs detached (rootPlace), so it outlives the
 * worker, and a resumed step follows the run it finds (`found`, looked up unless given) instead of
 * starting it again. Ansible's output is read whole once it ended, as runAsRoot reads it.
 */
export async function runAsRootDetached(
  ctx: StepContext,
  node: NodeEntry,
  argv: readonly string[],
  path: RootPath,
  found?: FoundRun,
  options: RootDetachedOptions = {},
): Promise<RootCommandResult> {
  const timeoutMs = options.timeoutMs ?? ctx.cluster.timeouts.nodeCommand;
  const title = quoteArgv(argv);
  const place = rootPlace(ctx, node, path);
  const run = found ?? (await findDetachedRun(ctx, place));
  const lines: string[] = [];
  if (path === 'ssh') {
    // Named before it starts: the job's end prunes its folder there, whatever becomes of this worker.
    const nodes = ctx.facts.get<string[]>(DETACHED_NODES_FACT) ?? [];
    if (!nodes.includes(node.name)) await ctx.facts.set(DETACHED_NODES_FACT, [...nodes, node.name]);
    const request = {
      argv,
      timeoutMs,
      signal: ctx.signal,
      onLine: async (line: string) => {
        lines.push(line);
        await options.onLine?.(line);
        return ctx.output(line);
      },
    };
    const result = await execDetached(ctx, place, title, request, run);
    return { exitCode: result.exitCode, lines };
  }
  // Ansible's stderr comes in the output file with its stdout: each line is read for what it says.
  const request = {
    ...(await adhocRequest(ctx, node, argv)),
    timeoutMs,
    onLine: (line: string) => {
      lines.push(line);
    },
  };
  const result = await execDetached(ctx, place, title, request, run, { whole: true });
  return adhocResult(ctx, node, lines, lines, result.exitCode);
}

async function adhocRequest(ctx: StepContext, node: NodeEntry, argv: readonly string[]) {
  return {
    argv: ansibleBecomeArgv(node.name, argv),
    cwd: repoPaths(ctx.world).ansible,
    env: await ansibleEnv(ctx),
    timeoutMs: ctx.cluster.timeouts.nodeCommand,
    signal: ctx.signal,
  };
}

/** What an ad-hoc run's output says of the command on `node`; its lines are shown once parsed. */
async function adhocResult(
  ctx: StepContext,
  node: NodeEntry,
  stdout: readonly string[],
  stderr: readonly string[],
  exitCode: number | null,
): Promise<RootCommandResult> {
  const parsed = parseAdhocCommand(node.name, stdout);
  if (!parsed) {
    // Ansible stopped before running anything (a bad inventory, an undecryptable vault): its error says why.
    const error = stderr.find((line) => /ERROR/.test(line))?.trim() ?? `ansible exited ${exitCode}`;
    return { exitCode: null, lines: [], failure: error };
  }
  if (parsed.unreachable) {
    throw new ClusterBotError(
      'SSH_UNREACHABLE',
      `${node.name} is unreachable from the ops host's Ansible: ${parsed.failure}`,
      {
        details: { node: node.name },
      },
    );
  }
  for (const line of parsed.lines) await ctx.output(line);
  return {
    exitCode: parsed.exitCode,
    lines: parsed.lines,
    ...(parsed.failure !== undefined && { failure: parsed.failure }),
  };
}
