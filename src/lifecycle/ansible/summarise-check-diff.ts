import type { AnsibleEvent } from './ansible-event.js';
import { createAnsibleOutputParser } from './create-ansible-output-parser.js';

export interface CheckDiffSummary {
  /** Per host, the tasks that would change something (each once, in run order, bounded). */
  readonly hosts: Readonly<Record<string, { readonly tasks: readonly string[]; readonly changed: number }>>;
  /** Changed results in all (a loop counts each item). */
  readonly changed: number;
  readonly failures: readonly { readonly host: string; readonly task: string; readonly msg: string }[];
  /** The first diff lines, each diff headed by `# <host>: <task>`. */
  readonly diffExcerpt: readonly string[];
  /** More diff lines existed than the excerpt holds. */
  readonly truncated: boolean;
}

const TASKS_PER_HOST = 50;
const KEPT_FAILURES = 10;

/** What a `--check --diff` run would change, from its events or its raw output lines. */
export function summariseCheckDiff(
  input: readonly AnsibleEvent[] | readonly string[],
  maxDiffLines = 40,
): CheckDiffSummary {
  const hosts: Record<string, { tasks: string[]; changed: number }> = {};
  const failures: { host: string; task: string; msg: string }[] = [];
  const diffExcerpt: string[] = [];
  let changed = 0;
  let truncated = false;

  const add = (event: AnsibleEvent) => {
    if (event.type !== 'host-result') return;
    if (event.status === 'failed' || event.status === 'unreachable') {
      if (failures.length < KEPT_FAILURES)
        failures.push({ host: event.host, task: event.task, msg: event.msg ?? '' });
      return;
    }
    if (event.status !== 'changed') return;
    changed += 1;
    hosts[event.host] ??= { tasks: [], changed: 0 };
    const host = hosts[event.host]!;
    host.changed += 1;
    if (!host.tasks.includes(event.task) && host.tasks.length < TASKS_PER_HOST) host.tasks.push(event.task);
    if (!event.diff || event.diff.length === 0) return;
    const chunk = [
      `# ${event.host}: ${event.task}${event.item === undefined ? '' : ` (${event.item})`}`,
      ...event.diff,
    ];
    const room = maxDiffLines - diffExcerpt.length;
    if (chunk.length > room) truncated = true;
    diffExcerpt.push(...chunk.slice(0, Math.max(room, 0)));
  };

  if (input.length > 0 && typeof input[0] === 'string') {
    const parser = createAnsibleOutputParser();
    for (const line of input as readonly string[]) for (const event of parser.push(line)) add(event);
    for (const event of parser.flush()) add(event);
  } else {
    for (const event of input as readonly AnsibleEvent[]) add(event);
  }
  return { hosts, changed, failures, diffExcerpt, truncated };
}
