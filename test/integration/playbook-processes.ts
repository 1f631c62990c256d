import { readdir, readFile, readlink } from 'node:fs/promises';

/** Local pids of ansible-playbook processes (and their forks) working in `cwd`: the lab's ops host is this machine. */
export async function playbookProcesses(cwd: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const found = await Promise.all(
    pids.map(async (pid) => {
      const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (!commandLine.includes('ansible-playbook')) return undefined;
      const dir = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
      return dir === cwd ? pid : undefined;
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}
