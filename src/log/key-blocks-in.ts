import { findKeyBlock, type KeyBlock } from './find-key-block.js';
import type { MatchBudget } from './match-budget.js';

/** The private key blocks of one line, left to right, as read under the line's match budget. */
export interface KeyBlocks {
  /** The text they were read from: they stand for no other. */
  readonly line: string;
  readonly blocks: readonly KeyBlock[];
  /** Where each BEGIN was read: what reading the blocks took from the budget. */
  readonly begins: readonly number[];
}

/**
 * Every private key block of a line, each from its BEGIN to its END, the last one to the end of the
 * line when it has none. Throws MatchLimitReached at the BEGIN past the budget.
 */
export function keyBlocksIn(line: string, budget: MatchBudget): KeyBlocks {
  const begins: number[] = [];
  const counted: MatchBudget = {
    take(at) {
      budget.take(at);
      begins.push(at);
    },
  };
  const blocks: KeyBlock[] = [];
  for (
    let block = findKeyBlock(line, 0, counted);
    block;
    block = block.closed ? findKeyBlock(line, block.end, counted) : undefined
  ) {
    blocks.push(block);
  }
  return { line, blocks, begins };
}

/**
 * The blocks already read, for another step that reads the same line: they cost its budget what
 * reading them again would (the same BEGINs, so the same MatchLimitReached), without the read.
 */
export function chargeKeyBlocks(keys: KeyBlocks, budget: MatchBudget): readonly KeyBlock[] {
  for (const at of keys.begins) budget.take(at);
  return keys.blocks;
}
