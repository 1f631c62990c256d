import { UNREDACTABLE } from './mask.js';
import { redactLine } from './redact-line.js';
import { knownSecretPatterns } from './redaction-patterns.js';
import { trackBlocks } from './track-blocks.js';

/** Replaces secrets in text before it leaves the process (Slack, uploaded logs, stdout logs, Redis). */
export type Redact = (text: string) => string;

/**
 * The redactor every output goes through. A text is redacted line by line, carrying across lines
 * what spans them (private keys, vault payloads, block scalars, env vars), in time linear in its
 * length. It is total: whatever happens inside, it returns text, and a text it cannot redact comes
 * out entirely masked.
 */
export function createRedactor(knownSecrets: readonly string[] = []): Redact {
  const known = knownSecretPatterns(knownSecrets);
  const line = (text: string) => redactLine(text, known);
  return (text) => {
    try {
      return text.split('\n').map(trackBlocks(line)).join('\n');
    } catch {
      return UNREDACTABLE;
    }
  };
}
