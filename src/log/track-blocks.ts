import { findKeyBlock } from './find-key-block.js';
import { type KeyBlocks, keyBlocksIn } from './key-blocks-in.js';
import { MASK } from './mask.js';
import { endsWithSecretEnvName } from './mask-named-values.js';
import { MatchLimitReached, matchBudget } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';
import { secretBlockStart } from './secret-block-start.js';

const P = REDACTION_PATTERNS;
// Enough of two lines to hold a BEGIN line broken between them.
const SPLIT_WINDOW = 120;

/**
 * Redacts a stream of lines, each through `redactLine`, carrying what spans lines: a private key
 * to its END line (also when its BEGIN line was itself broken over two), a vault payload while its
 * hex lines last, a secret's YAML block scalar (`password: |`: the lines under it, indented deeper,
 * same diff marker), and a Kubernetes env var's `value:` on the line after its `- name: …PASSWORD`.
 * A line's key blocks are read once: `redactLine` is given them, to mask them without a second read.
 */
export function trackBlocks(
  redactLine: (line: string, keys: KeyBlocks | undefined) => string,
): (line: string) => string {
  let inside: 'key' | 'vault' | undefined;
  let block: { marker: string; indent: string } | undefined;
  let envValueNext = false;
  let previous = '';
  return (line) => {
    const before = previous;
    previous = line;
    const envValue = envValueNext;
    envValueNext = false;
    if (inside === 'key') {
      if (new RegExp(P.keyBlockEnd).test(line)) inside = undefined;
      return MASK;
    }
    if (block) {
      const body = line.startsWith(block.marker) ? line.slice(block.marker.length) : undefined;
      if (line.trim() === '' || body?.trim() === '') return line;
      if (body?.startsWith(block.indent) && ' \t'.includes(body[block.indent.length] ?? 'x')) return MASK;
      block = undefined;
    }
    if (inside === 'vault') {
      if (P.vaultBody.test(line)) return MASK;
      inside = undefined;
    }
    if (continuesKeyHeader(before, line)) {
      inside = new RegExp(P.keyBlockEnd).test(line) ? undefined : 'key';
      return MASK;
    }
    if (envValue) {
      const value = P.envValue.exec(line);
      if (value) return `${line.slice(0, value[0].length)}${MASK}`;
    }
    const keys = readKeyBlocks(line);
    const start = secretBlockStart(line);
    if (start) block = start;
    else if (keyStaysOpen(keys)) inside = 'key';
    else if (P.vaultHeader.test(line)) inside = 'vault';
    envValueNext = endsWithSecretEnvName(line);
    return redactLine(line, keys);
  };
}

/** The line's private key blocks, or undefined when it has more BEGINs than a line may have. */
function readKeyBlocks(line: string): KeyBlocks | undefined {
  try {
    return keyBlocksIn(line, matchBudget());
  } catch (error) {
    if (error instanceof MatchLimitReached) return undefined;
    throw error;
  }
}

/**
 * Whether the last private key block on the line is left open. A line with more BEGINs than a line
 * may have is redacted only up to the limit, so one of the rest may open a key: the lines after it
 * are masked as one's, to its END.
 */
const keyStaysOpen = (keys: KeyBlocks | undefined) =>
  keys === undefined || keys.blocks.at(-1)?.closed === false;

/** A BEGIN line broken over two: the header is found only across the line break. */
function continuesKeyHeader(before: string, line: string): boolean {
  const tail = before.slice(-SPLIT_WINDOW);
  if (!tail.includes('BEGIN') || findKeyBlock(tail)) return false;
  const block = findKeyBlock(`${tail}\n${line.slice(0, SPLIT_WINDOW)}`);
  return block !== undefined && block.start < tail.length;
}
