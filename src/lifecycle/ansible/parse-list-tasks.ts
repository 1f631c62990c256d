export interface ListedPlay {
  /** 1-based, as `play #N` prints it. */
  readonly index: number;
  /** The host pattern after templating, e.g. `k3s_prod`. */
  readonly hosts: string;
  readonly name: string;
  /** Task names as the run prints them, e.g. `k3s_server : Install k3s`. */
  readonly tasks: readonly string[];
}

const PLAY = /^\s*play #(\d+) \((.*?)\): (.*?)(?:\tTAGS: \[.*\])?$/;
const TASKS_HEADER = /^\s*tasks:\s*$/;
const TASK = /^\s{6,}(\S.*?)(?:\tTAGS: \[.*\])?$/;

/** Reads `ansible-playbook --list-tasks` output (the plan of a run, honouring --tags/--limit). */
export function parseListTasks(text: string): { plays: ListedPlay[] } {
  const plays: { index: number; hosts: string; name: string; tasks: string[] }[] = [];
  let inTasks = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const play = PLAY.exec(line);
    if (play) {
      plays.push({ index: Number(play[1]), hosts: play[2]!, name: play[3]!.trim(), tasks: [] });
      inTasks = false;
      continue;
    }
    if (TASKS_HEADER.test(line)) {
      inTasks = plays.length > 0;
      continue;
    }
    const task = inTasks ? TASK.exec(line) : null;
    if (task) plays.at(-1)!.tasks.push(task[1]!.trim());
    else if (line.trim() === '') inTasks = false;
  }
  return { plays };
}
