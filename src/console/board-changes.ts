/** A board's lines as the console compares them: what a person would call its state, no progress. */
interface BoardShape {
  readonly header: string;
  readonly status: string;
  /** Each step's line by its number, and its state (the icon before the number). */
  readonly steps: ReadonlyMap<string, { readonly state: string; readonly line: string }>;
}

const STEP = /^(\S+) (\d+)\. /;

/** A job's board (header, `Status:` line, one line per step) read back from its text; anything else is no board. */
export function readBoard(text: string): BoardShape | undefined {
  const [header, status, ...lines] = text.split('\n');
  if (header === undefined || !status?.startsWith('Status:')) return undefined;
  const steps = new Map<string, { state: string; line: string }>();
  for (const line of lines) {
    const step = STEP.exec(line);
    if (step) steps.set(step[2]!, { state: step[1]!, line });
  }
  return { header, status, steps };
}

/**
 * What of a board edit is worth printing on a terminal: the whole board when its status moved
 * (running, waiting, an outcome), else only the steps whose state changed, under the board's
 * header; nothing when only a step's progress detail or duration did (the ticks Slack edits in place).
 */
export function boardChanges(before: BoardShape, after: BoardShape, text: string): string | undefined {
  if (before.status !== after.status || before.header !== after.header) return text;
  const changed = [...after.steps]
    .filter(([number, step]) => before.steps.get(number)?.state !== step.state)
    .map(([, step]) => step.line);
  return changed.length === 0 ? undefined : [after.header, ...changed].join('\n');
}
