import { isClusterBotError } from '../../errors.js';
import { nodeTarget } from '../targets.js';
import type { Precondition } from './precondition.js';

const REACH_TIMEOUT_MS = 15_000;

/** Every configured node answers over SSH with its pinned host key. */
export const nodesReachable: Precondition = {
  label: 'node SSH',
  async check(ctx) {
    const results = await Promise.all(
      ctx.cluster.nodes.map(async (node) => {
        try {
          await ctx.shell.exec(nodeTarget(ctx, node), {
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
  },
};
