import type { Redact } from '../log/create-redactor.js';
import { UNREDACTABLE } from '../log/mask.js';
import { trackBlocks } from '../log/track-blocks.js';

/**
 * Redacts a stream of output lines. A private key, a vault payload or a secret's block scalar
 * printed by a playbook spans many lines whose bodies look like nothing in particular, so each is
 * tracked from its header across the stream (src/log/track-blocks.ts): by the redactor's own
 * stream when it has one, which reads each line once for both. Never throws: a line it cannot
 * redact is masked whole.
 */
export function createLineRedactor(redact: Redact): (line: string) => string {
  const redactLine = redact.lines?.() ?? trackBlocks(redact);
  return (line) => {
    try {
      return redactLine(line);
    } catch {
      return UNREDACTABLE;
    }
  };
}
