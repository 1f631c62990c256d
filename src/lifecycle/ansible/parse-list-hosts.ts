export interface ListedPlay {
  readonly number: number;
  readonly name: string;
  /** The play's resolved host pattern, e.g. `k3s_prod_secondary`. */
  readonly pattern: string;
  readonly hosts: readonly string[];
}

const PLAY = /^\s*play #(\d+) \(([^)]*)\): (.*?)\s+TAGS: /;
const HOSTS = /^\s*hosts \((\d+)\):\s*$/;

/** Reads `ansible-playbook --list-hosts`: each play, its pattern and the hosts it would run on. */
export function parseListHosts(stdout: string): ListedPlay[] {
  const plays: { number: number; name: string; pattern: string; hosts: string[] }[] = [];
  let inHosts = false;
  for (const line of stdout.split('\n')) {
    const play = PLAY.exec(line);
    if (play) {
      plays.push({ number: Number(play[1]), pattern: play[2]!, name: play[3]!, hosts: [] });
      inHosts = false;
      continue;
    }
    if (HOSTS.test(line)) {
      inHosts = true;
      continue;
    }
    const host = line.trim();
    if (inHosts && host !== '' && !host.includes(' ')) plays.at(-1)?.hosts.push(host);
    else if (host === '') inHosts = false;
  }
  return plays;
}
