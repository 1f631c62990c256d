const BEGIN_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const END_KEY = /-----END [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Redacts a stream of output lines. A private key printed by a playbook spans many lines, and
 * its body lines look like nothing in particular, so the block is tracked from BEGIN to END.
 */
export function createLineRedactor(redact: (text: string) => string): (line: string) => string {
  let insideKey = false;
  return (line) => {
    if (insideKey) {
      if (END_KEY.test(line)) insideKey = false;
      return '[REDACTED]';
    }
    if (BEGIN_KEY.test(line) && !END_KEY.test(line)) insideKey = true;
    return redact(line);
  };
}
