import type { KeyBlocks } from './key-blocks-in.js';
import { UNREDACTABLE } from './mask.js';
import { redactLine } from './redact-line.js';
import { knownSecretPatterns } from './redaction-patterns.js';
import { trackBlocks } from './track-blocks.js';

/** Replaces secrets in text before it leaves the process (Slack, uploaded logs, stdout logs, Redis). */
export interface Redact {
  (text: string): string;
  /**
   * A new stream of lines redacted one by one, what spans them carried (src/lifecycle/redact-lines.ts
   * follows the lines of a redact without one). It may throw; the stream's reader masks that line.
   */
  readonly lines?: () => (line: string) => string;
}

/**
 * The redactor every output goes through. A text is redacted line by line, carrying across lines
 * what spans them (private keys, vault payloads, block scalars, env vars), in time linear in its
 * length. It is total: whatever happens inside, it returns text, and a text it cannot redact comes
 * out entirely masked.
 */
export function createRedactor(knownSecrets: readonly string[] = []): Redact {
  const known = knownSecretPatterns(knownSecrets);
  const line = (text: string, keys?: KeyBlocks) => redactLine(text, known, keys);
  // A text of one line carries nothing to another: it is redacted as the line it is, with the key
  // blocks a stream already read in it, so that no line's blocks are read twice.
  const redactText = (text: string, keys?: KeyBlocks) => {
    const lines = text.split('\n');
    return lines.length === 1 ? line(text, keys) : lines.map(trackBlocks(line)).join('\n');
  };
  const redact = (text: string) => {
    try {
      return redactText(text);
    } catch {
      return UNREDACTABLE;
    }
  };
  return Object.assign(redact, { lines: () => trackBlocks(redactText) });
}
