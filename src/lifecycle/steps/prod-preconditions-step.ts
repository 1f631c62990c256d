import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { nodeTarget, opsTarget } from '../targets.js';
import { captureRemote, captureRemoteOrFail } from './capture-remote.js';
import { parseInventory } from './parse-inventory.js';
import { repoPaths } from './repo-paths.js';

const REACH_TIMEOUT_MS = 15_000;

/**
 * The operators' ruling: prod stays uninitialised until all of its nodes are present. Every
 * precondition is checked, and all failures are listed at once so one run tells the whole story.
 */
export function prodPreconditionsStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'prod preconditions',
    target: `${cluster}: inventory, vault, disk layout, node SSH`,
    async run(ctx) {
      const failures = [
        ...(await inventoryProblems(ctx)),
        ...(await vaultProblems(ctx)),
        ...(await blockedProblems(ctx)),
        ...(await reachabilityProblems(ctx)),
      ];
      for (const failure of failures) await ctx.progress(`✗ ${failure}`);
      if (failures.length > 0) {
        throw new ClusterBotError(
          'PRECONDITION_FAILED',
          `${failures.length} precondition${failures.length > 1 ? 's' : ''} failed: ${failures.join('; ')}`,
          { details: { failures } },
        );
      }
      return {
        status: 'succeeded',
        summary: `all ${ctx.cluster.nodes.length} nodes in the inventory and reachable, vault present, no BLOCKED placeholder`,
      };
    },
  };
}

async function inventoryProblems(ctx: StepContext): Promise<string[]> {
  const text = await captureRemoteOrFail(ctx, opsTarget(ctx.world), [
    'cat',
    '--',
    repoPaths(ctx.world).inventory,
  ]);
  const inventory = parseInventory(text);
  return ctx.cluster.nodes.flatMap((node) => {
    if (inventory.active.has(node.name)) return [];
    return inventory.commented.has(node.name)
      ? [`${node.name} is still commented out of the inventory`]
      : [`${node.name} is not in the inventory`];
  });
}

async function vaultProblems(ctx: StepContext): Promise<string[]> {
  const vault = repoPaths(ctx.world).prodVault;
  const { exitCode } = await captureRemote(ctx, opsTarget(ctx.world), ['test', '-f', vault]);
  return exitCode === 0 ? [] : [`${relative(ctx, vault)} is missing (no become password for prod)`];
}

async function blockedProblems(ctx: StepContext): Promise<string[]> {
  const vars = repoPaths(ctx.world).prodVars;
  const { exitCode, stdout } = await captureRemote(ctx, opsTarget(ctx.world), ['cat', '--', vars]);
  if (exitCode !== 0) return [`${relative(ctx, vars)} cannot be read`];
  const blocked = stdout
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line.includes('BLOCKED') && !line.startsWith('#'));
  return blocked.length === 0
    ? []
    : [
        `${relative(ctx, vars)} still has ${blocked.length} BLOCKED placeholder${blocked.length > 1 ? 's' : ''} (disk layout decision): line ${blocked.map((b) => b.number).join(', ')}`,
      ];
}

async function reachabilityProblems(ctx: StepContext): Promise<string[]> {
  const results = await Promise.all(
    ctx.cluster.nodes.map(async (node) => {
      try {
        await ctx.shell.exec(nodeTarget(ctx.cluster, node), {
          argv: ['true'],
          timeoutMs: REACH_TIMEOUT_MS,
          signal: ctx.signal,
        });
        return undefined;
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
        return `${node.name} (${node.address}) is unreachable over SSH: ${(error as Error).message}`;
      }
    }),
  );
  return results.filter((problem): problem is string => problem !== undefined);
}

function relative(ctx: StepContext, path: string): string {
  return path.slice(repoPaths(ctx.world).root.length + 1);
}
