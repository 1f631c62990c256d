/** Replaces secrets in text before it leaves the process (Slack, uploaded logs, stdout logs). */
export type Redact = (text: string) => string;

const MASK = '[REDACTED]';

// Shapes of secrets that playbooks and tools print even when nobody configured them as secrets.
const SECRET_SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g,
  /\bxapp-[A-Za-z0-9-]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAGE-SECRET-KEY-1[0-9A-Z]{20,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi,
];

// `password: x`, `"token": "x"`, `api_key=x`: keep the key, hide the value.
const SECRET_ASSIGNMENT =
  /((?:password|passwd|secret|token|api[_-]?key|private[_-]?key|become_pass)[A-Za-z0-9_-]*["']?\s*[:=]\s*["']?)([^\s"',}]{3,})/gi;

export function createRedactor(knownSecrets: readonly string[] = []): Redact {
  const literals = [...new Set(knownSecrets.filter((s) => s.length >= 6))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const secret of literals) out = out.split(secret).join(MASK);
    for (const shape of SECRET_SHAPES) {
      out = out.replace(shape, (match, prefix?: unknown) =>
        typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${MASK}` : MASK,
      );
    }
    return out.replace(SECRET_ASSIGNMENT, (_match, key: string) => `${key}${MASK}`);
  };
}
