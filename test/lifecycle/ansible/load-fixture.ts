import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A captured run: its output lines and the exit code ansible-playbook returned (header line). */
export function loadFixture(name: string): { exitCode: number; lines: string[] } {
  const text = readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8');
  const [header, ...lines] = text.replace(/\n$/, '').split('\n');
  const exit = / => exit (\d+)$/.exec(header ?? '');
  if (!exit) throw new Error(`fixture ${name} has no exit header`);
  return { exitCode: Number(exit[1]), lines };
}
