import {
  MASK,
  PRIVATE_KEY_BEGIN,
  PRIVATE_KEY_END,
  type Redact,
  SECRET_BLOCK_START,
  UNREDACTABLE,
  VAULT_HEADER,
} from '../log/create-redactor.js';

// A vault body line, as printed: in YAML (indented), a diff (+, -, context), a list item ("…",),
// a quoted argument ('…' --next).
const VAULT_BODY = /^[\s+|>"'-]*[0-9a-fA-F]+(?:["',\s]|$)/;

/**
 * Redacts a stream of output lines. A private key or a vault payload printed by a playbook spans
 * many lines whose bodies look like nothing in particular, so each block is tracked from its
 * header: a key to its END line, a vault payload while its hex lines last. Never throws: a line
 * it cannot redact is masked whole.
 */
export function createLineRedactor(redact: Redact): (line: string) => string {
  let inside: 'key' | 'vault' | undefined;
  // A secret's YAML block scalar: its lines are those under the key, indented deeper (same diff marker).
  let block: { marker: string; indent: string } | undefined;
  return (line) => {
    try {
      if (inside === 'key') {
        if (PRIVATE_KEY_END.test(line)) inside = undefined;
        return MASK;
      }
      if (block) {
        const body = line.startsWith(block.marker) ? line.slice(block.marker.length) : undefined;
        if (line.trim() === '' || body?.trim() === '') return line;
        if (body?.startsWith(block.indent) && /^[ \t]/.test(body.slice(block.indent.length))) return MASK;
        block = undefined;
      }
      if (inside === 'vault') {
        if (VAULT_BODY.test(line)) return MASK;
        inside = undefined;
      }
      const start = SECRET_BLOCK_START.exec(line);
      if (start) block = { marker: start[1] ?? '', indent: start[2] ?? '' };
      else if (PRIVATE_KEY_BEGIN.test(line) && !PRIVATE_KEY_END.test(line)) inside = 'key';
      else if (VAULT_HEADER.test(line)) inside = 'vault';
      return redact(line);
    } catch {
      return UNREDACTABLE;
    }
  };
}
