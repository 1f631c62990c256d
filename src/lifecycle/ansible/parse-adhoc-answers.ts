/** One host's result of an ad-hoc module run that returns JSON (e.g. `-m debug`). */
export interface AdhocAnswer {
  /** The module's `msg`, as JSON gave it (debug renders a boolean as true/false). */
  readonly msg?: unknown;
  /** Why the module failed on the host (FAILED! or UNREACHABLE!); undefined when it succeeded. */
  readonly failure?: string;
}

/** `k3s-prod-1 | SUCCESS => {`: one host's JSON result follows, up to a line holding only `}`. */
const HEADER = /^(\S+) \| (SUCCESS|CHANGED|FAILED!|UNREACHABLE!) => \{$/;

/**
 * Reads ansible's default ad-hoc output for many hosts: each host's header line and its JSON
 * result, by host name. A host with no header (not in the inventory, or ansible stopped before
 * running anything) is absent.
 */
export function parseAdhocAnswers(stdout: string): Map<string, AdhocAnswer> {
  const answers = new Map<string, AdhocAnswer>();
  const lines = stdout.split('\n');
  for (const [index, line] of lines.entries()) {
    const header = HEADER.exec(line);
    if (!header) continue;
    const end = lines.indexOf('}', index + 1);
    const result = parseResult(['{', ...lines.slice(index + 1, end === -1 ? undefined : end + 1)].join('\n'));
    const succeeded = header[2] === 'SUCCESS' || header[2] === 'CHANGED';
    answers.set(
      header[1]!,
      succeeded
        ? { msg: result?.msg }
        : { failure: typeof result?.msg === 'string' ? result.msg.split('\n')[0]!.trim() : header[2]! },
    );
  }
  return answers;
}

function parseResult(text: string): { msg?: unknown } | undefined {
  try {
    return JSON.parse(text) as { msg?: unknown };
  } catch {
    return undefined;
  }
}
