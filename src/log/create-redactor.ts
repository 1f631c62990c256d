/** Replaces secrets in text before it leaves the process (Slack, uploaded logs, stdout logs, Redis). */
export type Redact = (text: string) => string;

export const MASK = '[REDACTED]';
/** What is left of a text the redactor could not handle: all of it is hidden, never passed through. */
export const UNREDACTABLE = '[REDACTED: unredactable text]';

/** A private key (PEM, OpenSSH, PGP) to its END line, or to the end of the text when it never ends. */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----/;
export const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----/;
/** The header of an ansible-vault payload; its body is lines of hex. */
export const VAULT_HEADER = /\$ANSIBLE_VAULT;/;

// Words that name a secret: in `key: value`, `key=value`, `"key": "value"` and `--key value`.
const SECRET_WORDS =
  'password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|pass\\b|client-key-data';
// The key as written before `:` or `=`: `ansible_become_password`, `K3S_TOKEN`, `\"token\"`; not a
// `token_file` or `password-path` (a path is no secret).
const SECRET_KEY = String.raw`(?:${SECRET_WORDS})[A-Za-z0-9_-]*(?<![-_](?:file|path|dir))\\?["']?`;

// A value after `=` or an option: one shell word (quoted parts, escapes and stray quotes too), as
// in argv, an env line or `k=v` arguments; inside JSON text it runs over the escaped quotes.
const WORD = String.raw`(?:'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|\\.|[^\s\\])+`;

// Shapes of secrets that playbooks and tools print even when nobody configured them as secrets.
const SECRET_SHAPES: readonly RegExp[] = [
  new RegExp(`${PRIVATE_KEY_BEGIN.source}[\\s\\S]*?(?:${PRIVATE_KEY_END.source}|$)`, 'g'),
  // The header, then hex lines: across real newlines, `\n` escapes in a JSON string, list items.
  /\$ANSIBLE_VAULT;[^\s"'\\]*(?:(?:\\[rn]|[\s+|>",-])+[0-9a-fA-F]+)*/g,
  // Base64 of a PEM block ("-----BEGIN"), as in a kubeconfig's client-key-data.
  /LS0tLS1CRUdJTi[A-Za-z0-9+/=]*/g,
  // k3s join tokens: K10<ca hash>::server:<password> or ::node:<password>, with or without the hash.
  /(?:\bK10[0-9a-fA-F]*)?::(?:server|node):[^\s"',;}\]\\]+/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  /\bxox[a-z](?:\.xox[a-z])?-[A-Za-z0-9-]{8,}/g,
  /\bxapp-[A-Za-z0-9-]{8,}/g,
  /\bhttps?:\/\/hooks\.slack(?:-gov)?\.com\/[A-Za-z0-9_/-]+/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bAGE-SECRET-KEY-1[0-9A-Z]{20,}/g,
];

/**
 * A secret key whose value is a YAML block scalar (`password: |`): the value is on the lines below,
 * indented deeper than the key. Group 1 is a diff marker, group 2 the key's indentation.
 */
export const SECRET_BLOCK_START = new RegExp(
  String.raw`^([+-]?)([ \t]*)[^\n]*?${SECRET_KEY}[ \t]*:[ \t]*(?:!vault[ \t]+)?[|>][-+0-9]*[ \t]*$`,
  'i',
);

// These keep what names the secret and hide only the value.
const SECRET_FIELDS: readonly RegExp[] = [
  // password: | then its deeper-indented (or blank) lines, in a whole text; the line redactor tracks them itself
  new RegExp(
    String.raw`(^([+-]?)([ \t]*)[^\n]*?${SECRET_KEY}[ \t]*:[ \t]*(?:!vault[ \t]+)?[|>][-+0-9]*[ \t]*)(?:\r?\n\2\3[ \t]+[^\n]*|\r?\n\2?[ \t]*(?=\r?\n))+`,
    'gim',
  ),
  /(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /(\bbasic\s+)[A-Za-z0-9+/=]{8,}/gi,
  // scheme://user:password@host, the password up to the last @ before the host (it may hold an @)
  /(\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s/@:'"\\]*:)[^\s/'"\\]+(?=@[^\s/@'"\\]*(?:[/\s'"\\?#]|$))/g,
  // --password x, --token=x (not --token-file x: a path is no secret)
  new RegExp(`(--[a-z0-9-]*?(?:${SECRET_WORDS})[a-z0-9-]*(?<!file|path|dir)(?:=|\\s+))${WORD}`, 'gi'),
  // password: x, "token": "x", \"token\": \"x\": to the end of the line, as a YAML value may hold spaces
  new RegExp(`(${SECRET_KEY}[ \\t]*:[ \\t]*)\\S[^\\n]*`, 'gi'),
  // api_key=x, K3S_TOKEN=x, aws_secret_access_key = x
  new RegExp(`(${SECRET_KEY}[ \\t]*=[ \\t]*)${WORD}`, 'gi'),
];

/**
 * The redactor every output goes through. It is total: whatever happens inside, it returns text,
 * and a text it cannot redact comes out entirely masked.
 */
export function createRedactor(knownSecrets: readonly string[] = []): Redact {
  // Each also as it reads inside JSON text (a quote or backslash in it escaped).
  const literals = [
    ...new Set(knownSecrets.filter((s) => s.length >= 6).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)])),
  ]
    .sort((a, b) => b.length - a.length)
    .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // One pass for all of them, longest first, however many lines of key files are known.
  const known = literals.length > 0 ? new RegExp(literals.join('|'), 'g') : undefined;
  return (text) => {
    try {
      let out = known ? text.replace(known, MASK) : text;
      for (const shape of SECRET_SHAPES) out = out.replace(shape, MASK);
      for (const field of SECRET_FIELDS) out = out.replace(field, (_match, name: string) => `${name}${MASK}`);
      return out;
    } catch {
      return UNREDACTABLE;
    }
  };
}
