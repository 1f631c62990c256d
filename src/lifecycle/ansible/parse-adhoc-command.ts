/** What one host's `ansible <host> -m command` run came to, read from the ad-hoc (minimal) output. */
export interface AdhocCommandResult {
  /** The command's own exit code; null when it never ran (unreachable, become failed). */
  readonly exitCode: number | null;
  /** Its stdout then its stderr, line by line, as the command module returned them. */
  readonly lines: readonly string[];
  /** Why it never ran: Ansible's msg (e.g. "Incorrect sudo password"); undefined when it ran. */
  readonly failure?: string;
  /** Ansible could not connect to the host at all. */
  readonly unreachable?: boolean;
}

/** `k3s-prod-1 | CHANGED | rc=0 >>`: the command ran; its output follows. */
const RAN = /^(\S+) \| (CHANGED|SUCCESS|FAILED) \| rc=(-?\d+) >>$/;
/** `k3s-prod-1 | FAILED! => {` or `| UNREACHABLE! => {`: it did not run; a JSON result follows. */
const DID_NOT_RUN = /^(\S+) \| (FAILED!|UNREACHABLE!) => (\{.*)$/;
/** The rc ansible prints for a result that has none. */
const NOT_RUN = -1;
/** What the command module appends to the output of a non-zero exit. */
const NON_ZERO = 'non-zero return code';

/**
 * Reads ansible's minimal callback for one host (`-m command` with `strip_empty_ends: false`, so
 * stdout keeps its last newline and stderr starts on a line of its own): the header line, then
 * stdout, stderr and the module's msg, then one closing newline. Undefined when `host` has no
 * header in `stdout` (ansible failed before running anything: its error is on stderr).
 */
export function parseAdhocCommand(host: string, stdout: readonly string[]): AdhocCommandResult | undefined {
  for (const [index, line] of stdout.entries()) {
    const ran = RAN.exec(line);
    if (ran && ran[1] === host) {
      const exitCode = Number(ran[3]);
      const lines = stdout.slice(index + 1);
      if (lines.at(-1) === '') lines.pop();
      // No rc at all (ansible prints -1): become failed before the command ran, e.g. "Incorrect sudo password".
      if (exitCode === NOT_RUN) return { exitCode: null, lines: [], failure: lines.join(' ').trim() };
      if (exitCode !== 0 && lines.at(-1) === NON_ZERO) lines.pop();
      return { exitCode, lines };
    }
    const notRun = DID_NOT_RUN.exec(line);
    if (notRun && notRun[1] === host) {
      const failure = resultMessage([notRun[3]!, ...stdout.slice(index + 1)].join('\n'));
      return { exitCode: null, lines: [], failure, unreachable: notRun[2] === 'UNREACHABLE!' };
    }
  }
  return undefined;
}

/**
 * What the JSON result says went wrong: the module's stderr when there is one ("sudo: a password is
 * required" beside a bare "MODULE FAILURE"), else its msg.
 */
function resultMessage(text: string): string {
  const end = text.indexOf('\n}');
  try {
    const result = JSON.parse(end === -1 ? text : text.slice(0, end + 2)) as Record<string, unknown>;
    for (const key of ['module_stderr', 'msg']) {
      const value = result[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  } catch {
    // Not JSON after all: the first line says what there is.
  }
  return text.split('\n')[0]!.trim();
}
