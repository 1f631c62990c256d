import type { KeyBlock } from './find-key-block.js';
import { chargeKeyBlocks, type KeyBlocks, keyBlocksIn } from './key-blocks-in.js';
import { MASK, MAX_CHECKED_LINE, uncheckedTail } from './mask.js';
import { maskNamedValues } from './mask-named-values.js';
import { maskUrlCredentials } from './mask-url-credentials.js';
import { type MatchBudget, MatchLimitReached, matchBudget, UNLIMITED } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';

const P = REDACTION_PATTERNS;
// Shapes of secrets that playbooks and tools print even when nobody configured them as secrets.
const SHAPES: readonly RegExp[] = [
  P.vault,
  P.base64Pem,
  P.base64Kubeconfig,
  P.base64DockerConfig,
  P.k3sToken,
  P.slackToken,
  P.slackAppToken,
  P.slackWebhook,
  P.awsKeyId,
  P.githubToken,
  P.githubPat,
  P.ageKey,
  P.googleApiKey,
];
// How far back from a cut a line is cut at a blank, so that no secret is shown half.
const CUT_SLACK = 4_096;

type Step = (line: string, budget: MatchBudget) => string;

/**
 * One line (no newline in it) with its secrets masked: the configured values, private keys that
 * begin on it (to their END, or to the end of the line), the shapes of common secrets and the values
 * of keys that name one. Every step reads the line a bounded number of times, so its cost is linear;
 * past MAX_CHECKED_LINE characters, or past MAX_MATCHES_PER_LINE matches that are decided in code
 * (whose cost is per match), the rest is masked unread. `keys`, the line's key blocks as trackBlocks
 * read them, spares reading them again while the text is still that line.
 */
export function redactLine(line: string, known: readonly RegExp[], keys?: KeyBlocks): string {
  const steps: readonly Step[] = [
    (text) => known.reduce((out, secret) => out.replace(secret, MASK), text),
    (text, budget) =>
      maskKeyBlocks(
        text,
        keys?.line === text ? chargeKeyBlocks(keys, budget) : keyBlocksIn(text, budget).blocks,
      ),
    maskShapes,
    maskJwts,
    maskAuthCredentials,
    maskUrlCredentials,
    maskNamedValues,
  ];
  let out = line.length > MAX_CHECKED_LINE ? line.slice(0, cutBefore(line, MAX_CHECKED_LINE)) : line;
  let unchecked = line.length - out.length;
  const budget = matchBudget();
  for (const step of steps) {
    try {
      out = step(out, budget);
    } catch (error) {
      if (!(error instanceof MatchLimitReached)) throw error;
      const cut = cutBefore(out, error.at);
      unchecked += out.length - cut;
      out = step(out.slice(0, cut), UNLIMITED);
    }
  }
  return unchecked > 0 ? `${out}${uncheckedTail(unchecked)}` : out;
}

function maskShapes(line: string): string {
  let out = line;
  for (const shape of SHAPES) out = out.replace(shape, MASK);
  return out;
}

/**
 * `Bearer x` and `Basic x` as `Bearer [REDACTED]`: the scheme and its blanks kept, a credential of
 * at least 8 characters after them masked. Each scheme word is a match decided in code, so a line
 * of them (`Bearer Bearer …`) costs what any other line of matches does.
 */
function maskAuthCredentials(line: string, budget: MatchBudget): string {
  const scheme = new RegExp(P.authScheme);
  const credentials = { bearer: new RegExp(P.bearerCredential), basic: new RegExp(P.basicCredential) };
  let out = '';
  let copied = 0;
  for (let found = scheme.exec(line); found; found = scheme.exec(line)) {
    budget.take(found.index);
    const from = scheme.lastIndex;
    const credential = credentials[found[0].slice(0, 5).toLowerCase() === 'basic' ? 'basic' : 'bearer'];
    credential.lastIndex = from;
    if (!credential.test(line)) continue;
    out += `${line.slice(copied, from)}${MASK}`;
    copied = credential.lastIndex;
    scheme.lastIndex = copied;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** Where to cut a line at `at`: after the last blank shortly before it, else at `at` itself. */
function cutBefore(line: string, at: number): number {
  const blank = line.lastIndexOf(' ', at - 1);
  return blank > at - CUT_SLACK ? blank + 1 : at;
}

function maskKeyBlocks(line: string, blocks: readonly KeyBlock[]): string {
  let out = '';
  let copied = 0;
  for (const block of blocks) {
    out += `${line.slice(copied, block.start)}${MASK}`;
    copied = block.end;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** `eyJ….eyJ….signature`: a run of the characters JWTs are made of, masked from its first `eyJ` part. */
function maskJwts(line: string, budget: MatchBudget): string {
  if (!line.includes('.eyJ')) return line;
  return line.replace(P.dottedRun, (run, at: number) => {
    const second = run.indexOf('.eyJ');
    if (second < 0) return run;
    budget.take(at);
    const first = run.lastIndexOf('eyJ', second);
    if (first < 0 || second - first < 7) return run;
    return `${run.slice(0, first)}${MASK}`;
  });
}
