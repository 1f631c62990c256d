/**
 * Every regular expression the redactor runs, in one place, so that a test can check each one for
 * super-linear backtracking (recheck). Each finds a name, a fixed prefix or one run of a character
 * class; what the text around it means is decided in code, so no pattern backtracks over a line.
 */
export const REDACTION_PATTERNS = {
  /** Words that name a secret in `key: value`, `key=value`, `"key": "value"`, `--key value`. */
  secretName:
    /password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|preshared[_-]?key|client-key-data|requirepass|masterauth|pass\b|pw\b|auth\b|sig\b|signature/gi,
  /** The rest of a key after the secret name in it: a run of key characters, read in one step (sticky). */
  keyRest: /[A-Za-z0-9_-]*/y,
  /** Where a private key begins: PEM, OpenSSH, PGP, RFC 4716 (`---- BEGIN`), PuTTY. */
  keyBlockStart: /-{4,5} ?BEGIN |PuTTY-User-Key-File-/g,
  keyBlockEnd: /-{4,5} ?END |Private-MAC:/g,
  /** An ansible-vault payload within one line: the header, then hex across `\n` escapes, list items. */
  vault: /\$ANSIBLE_VAULT;[^\s"'\\]*(?:(?:\\[rn]|[\s+|>",-])+[0-9a-fA-F]+)*/g,
  vaultHeader: /\$ANSIBLE_VAULT;/,
  /** A vault body line, as printed: in YAML, a diff, a list item ("…",), a quoted argument. */
  vaultBody: /^[\s+|>"'-]*[0-9a-fA-F]+(?:["',\s]|$)/,
  /** Base64 of a PEM block (client-key-data), of a kubeconfig, of a Docker config (`.dockerconfigjson`). */
  base64Pem: /LS0tLS1CRUdJTi[A-Za-z0-9+/=]*/g,
  base64Kubeconfig: /YXBpVmVyc2lvbj[A-Za-z0-9+/=]*/g,
  base64DockerConfig: /eyJhdXRocyI6[A-Za-z0-9+/=]*/g,
  /** k3s join tokens: K10<ca hash>::server:<password> or ::node:<password>, with or without the hash. */
  k3sToken: /(?:\bK10[0-9a-fA-F]*)?::(?:server|node):[^\s"',;}\]\\]+/g,
  /** A run that may hold a JWT (`eyJ….eyJ….sig`); whether it does is decided in code. */
  dottedRun: /[A-Za-z0-9_.-]+/g,
  slackToken: /\bxox[a-z](?:\.xox[a-z])?-[A-Za-z0-9-]{8,}/g,
  slackAppToken: /\bxapp-[A-Za-z0-9-]{8,}/g,
  slackWebhook: /\bhttps?:\/\/hooks\.slack(?:-gov)?\.com\/[A-Za-z0-9_/-]+/g,
  awsKeyId: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  githubToken: /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  githubPat: /\bgithub_pat_[A-Za-z0-9_]+/g,
  ageKey: /\bAGE-SECRET-KEY-1[0-9A-Z]+/g,
  googleApiKey: /\bAIza[0-9A-Za-z_-]{35}/g,
  /**
   * The scheme of `Bearer x` and `Basic x` with the blanks after it; whether a credential follows is
   * read in code (sticky), so each scheme word is one match counted against the line's budget.
   */
  authScheme: /\b(?:bearer|basic)\s+/gi,
  bearerCredential: /[A-Za-z0-9._~+/=-]{8,}/y,
  basicCredential: /[A-Za-z0-9+/=]{8,}/y,
  /**
   * A shell word's well-formed part, read in one step (sticky): plain characters, escapes and quoted
   * parts that close on the line. It stops at a blank or at a quote that never closes.
   */
  shellWord: /(?:[^ \t\n\r\f\v'"\\]|\\[\s\S]|'[^'\n]*'|"(?:[^"\\\n]|\\[\s\S])*")*/y,
  /** The `://` of a URL, whose userinfo is then read in code. */
  urlScheme: /:\/\//g,
  /** A line's diff marker and indentation. */
  lineStart: /^([+-]?)([ \t]*)/,
  /** Nothing but a diff marker and blanks: the start of a line. */
  onlyLineStart: /^[+-]?[ \t]*$/,
  /** The `value:` line under a Kubernetes env var's `- name:` (YAML or JSON, in a diff or a list item). */
  envValue: /^[\s"'+-]*\\?["']?value\\?["']?[ \t]*:[ \t]*/,
  blanks: /[ \t]+/,
} as const;

const escapeLiteral = (secret: string) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The patterns for the secrets the config names by value, each also as it reads inside JSON text,
 * longest first: literals only, one pass for all of them. One shorter than 6 characters is found
 * only as a whole token (no letter or digit either side), or every short word would be masked.
 */
export function knownSecretPatterns(knownSecrets: readonly string[]): RegExp[] {
  const forms = [
    ...new Set(knownSecrets.filter((s) => s.length > 0).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)])),
  ].sort((a, b) => b.length - a.length);
  const long = forms.filter((s) => s.length >= 6).map(escapeLiteral);
  const short = forms.filter((s) => s.length < 6).map(escapeLiteral);
  return [
    ...(long.length > 0 ? [new RegExp(long.join('|'), 'g')] : []),
    ...(short.length > 0 ? [new RegExp(`(?<![A-Za-z0-9])(?:${short.join('|')})(?![A-Za-z0-9])`, 'g')] : []),
  ];
}
