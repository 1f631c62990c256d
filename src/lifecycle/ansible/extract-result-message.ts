import { parse as parseYaml } from 'yaml';

const MAX_MESSAGE = 500;
const TAIL_LINES = 3;
// Messages that say only "the command failed": the reason is in its output.
const GENERIC = new Set([
  'non-zero return code',
  'MODULE FAILURE',
  'MODULE FAILURE\nSee stdout/stderr for the exact error',
]);

/**
 * The one-line reason of a failed result, from the text after `=>`: `msg`, else (or after a
 * generic msg) the tail of stderr / stdout, else `reason` or the first line of `exception`.
 * Reads JSON (the default), YAML (`callback_result_format = yaml`), and falls back to key
 * lookups when the text is neither (truncated).
 */
export function extractResultMessage(body: string): string | undefined {
  const result = parseObject(body);
  const text = (key: string): string | undefined => {
    const value = result ? result[key] : lookupLoose(body, key);
    if (typeof value === 'string') return value.trim() || undefined;
    if (Array.isArray(value)) return tail(value.filter((line) => typeof line === 'string').join('\n'));
    return undefined;
  };
  const msg = text('msg');
  const output = tail(text('stderr') ?? text('stderr_lines') ?? text('stdout') ?? text('stdout_lines'));
  const reason =
    msg && !GENERIC.has(msg)
      ? msg
      : [msg, output].filter(Boolean).join(': ') ||
        text('reason') ||
        text('exception')
          ?.split('\n')
          .find((line) => line.trim());
  return reason ? clip(reason) : undefined;
}

function parseObject(body: string): Record<string, unknown> | null {
  const asObject = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  try {
    return asObject(JSON.parse(body));
  } catch {
    try {
      return asObject(parseYaml(dedent(body)));
    } catch {
      return null;
    }
  }
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length));
  return Number.isFinite(indent) ? lines.map((line) => line.slice(indent)).join('\n') : text;
}

/** `"key": "..."` in broken JSON, or `key: ...` on a YAML line. */
function lookupLoose(body: string, key: string): string | undefined {
  const json = new RegExp(`"${key}":\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(body);
  if (json) {
    try {
      return JSON.parse(`"${json[1]}"`) as string;
    } catch {
      return json[1];
    }
  }
  const yaml = new RegExp(`^\\s*${key}:\\s*(.+)$`, 'm').exec(body);
  return yaml?.[1]?.replace(/^(['"])(.*)\1$/, '$2');
}

function tail(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const lines = text.split('\n').filter((line) => line.trim());
  return lines.slice(-TAIL_LINES).join(' / ') || undefined;
}

function clip(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 1)}…` : flat;
}
