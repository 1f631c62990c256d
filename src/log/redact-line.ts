import { findKeyBlock } from './find-key-block.js';
import { MASK, MAX_CHECKED_LINE, uncheckedTail } from './mask.js';
import { maskNamedValues } from './mask-named-values.js';
import { maskUrlCredentials } from './mask-url-credentials.js';
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
// How far back from the cap a line is cut at a blank, so that no secret is shown half.
const CUT_SLACK = 4_096;

/**
 * One line (no newline in it) with its secrets masked: the configured values, private keys that
 * begin on it (to their END, or to the end of the line), the shapes of common secrets and the values
 * of keys that name one. Every step reads the line a bounded number of times, so its cost is linear;
 * past MAX_CHECKED_LINE characters the rest is masked unread.
 */
export function redactLine(line: string, known: readonly RegExp[]): string {
  if (line.length > MAX_CHECKED_LINE) {
    const blank = line.lastIndexOf(' ', MAX_CHECKED_LINE);
    const cut = blank > MAX_CHECKED_LINE - CUT_SLACK ? blank + 1 : MAX_CHECKED_LINE;
    return `${redactLine(line.slice(0, cut), known)}${uncheckedTail(line.length - cut)}`;
  }
  let out = line;
  for (const secret of known) out = out.replace(secret, MASK);
  out = maskKeyBlocks(out);
  for (const shape of SHAPES) out = out.replace(shape, MASK);
  out = maskJwts(out);
  out = out.replace(P.bearer, (_match, name: string) => `${name}${MASK}`);
  out = out.replace(P.basic, (_match, name: string) => `${name}${MASK}`);
  return maskNamedValues(maskUrlCredentials(out));
}

function maskKeyBlocks(line: string): string {
  let out = '';
  let copied = 0;
  for (
    let block = findKeyBlock(line);
    block;
    block = block.closed ? findKeyBlock(line, block.end) : undefined
  ) {
    out += `${line.slice(copied, block.start)}${MASK}`;
    copied = block.end;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** `eyJ….eyJ….signature`: a run of the characters JWTs are made of, masked from its first `eyJ` part. */
function maskJwts(line: string): string {
  if (!line.includes('.eyJ')) return line;
  return line.replace(P.dottedRun, (run) => {
    const second = run.indexOf('.eyJ');
    if (second < 0) return run;
    const first = run.lastIndexOf('eyJ', second);
    if (first < 0 || second - first < 7) return run;
    return `${run.slice(0, first)}${MASK}`;
  });
}
