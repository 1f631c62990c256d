import { ClusterBotError } from '../../errors.js';
import { askAnsible } from '../ansible/ask-ansible.js';
import { parseListHosts } from '../ansible/parse-list-hosts.js';
import type { PlaybookInvocation } from '../ansible/playbook-invocation.js';
import type { StepContext } from '../plan/step.js';

/**
 * Asks ansible which hosts the exact same argv would run on (`--list-hosts` runs nothing) and
 * insists they are exactly the nodes the step claims. A play whose pattern matches nothing is
 * skipped with exit 0, so a node missing from hosts.ini would otherwise be left out in silence.
 * With `founderPlay` (k3s.yml run to re-join nodes) the play of that pattern must target none of them.
 */
export async function proveTargets(
  ctx: StepContext,
  invocation: PlaybookInvocation,
  claimed: readonly string[],
  founderPlay?: string,
): Promise<string> {
  const listed = await askAnsible(ctx, invocation, '--list-hosts');
  const fail = (problems: string[]) => {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `${invocation.playbook} would not run on exactly ${claimed.join(', ')}: ${problems.join('; ')}`,
      { details: { playbook: invocation.playbook, claimed, failures: problems } },
    );
  };
  if (listed.exitCode !== 0) {
    const why = lastLine(listed.stderr) ?? `ansible-playbook --list-hosts exited ${listed.exitCode}`;
    return fail([`${why} (inventory/hosts.ini)`]);
  }
  const plays = parseListHosts(listed.stdout);
  const targeted = new Set(plays.flatMap((play) => play.hosts));
  const problems: string[] = [];
  for (const node of claimed) {
    if (!targeted.has(node))
      problems.push(`${node} is in no play's hosts (not in the groups inventory/hosts.ini gives them)`);
  }
  for (const host of targeted) {
    if (!claimed.includes(host))
      problems.push(`it would also run on ${host}, which this step does not claim`);
  }
  // Under --limit a play for another part of the cluster is meant to be empty; without it, never.
  if (!invocation.limit) {
    for (const play of plays.filter((p) => p.hosts.length === 0)) {
      problems.push(
        `play ${play.number} "${play.name}" matches no host (pattern ${play.pattern} in inventory/hosts.ini)`,
      );
    }
  }
  // A node re-joining must only join: in the founder's play it would get --cluster-init (a new cluster).
  for (const play of plays.filter((p) => founderPlay !== undefined && p.pattern === founderPlay)) {
    for (const host of play.hosts) {
      problems.push(
        `${host} is in play ${play.number} "${play.name}" (pattern ${play.pattern}), the founder's --cluster-init play: a re-joining node must only be in the join play`,
      );
    }
  }
  if (plays.length === 0) problems.push('ansible listed no play');
  if (problems.length > 0) return fail(problems);
  return `${invocation.playbook} targets exactly ${[...targeted].sort().join(', ')}`;
}

function lastLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}
