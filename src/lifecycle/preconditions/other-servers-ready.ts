import type { Precondition } from './precondition.js';
import { quorumProblems } from './quorum-problems.js';

export function otherServersReady(node: string): Precondition {
  return { label: 'other servers Ready', check: (ctx) => quorumProblems(ctx, node) };
}
