import { ClusterBotError } from '../../errors.js';
import type { PlaybookOutcome } from '../ansible/ansible-event.js';
import type { PlaybookReport } from './run-playbook.js';

export interface NodeHealthScope {
  /** What `node_health_hosts` names: one node, or the cluster's inventory group. */
  readonly hosts: string;
  /** The configured nodes the diagnostic should reach. */
  readonly nodes: readonly string[];
}

const PLAYBOOK = 'node-health.yml';

/**
 * One line per host from the recap and the failures: ok, failed at a task with its msg, or
 * unreachable. Any unhealthy host fails the step, naming each one, but every host is reported.
 * The diagnostic changes nothing, so its targets are proven after the run, from the recap: a
 * pattern that matched no host ("skipping: no hosts matched", exit 0) checked nothing and fails.
 */
export function reportNodeHealth(scope: NodeHealthScope): PlaybookReport {
  return (outcome) => {
    const recap = outcome.recap;
    if (!recap) throw failed(outcome, outcome.errors[0] ?? exited(outcome));
    const hosts = Object.keys(recap);
    if (hosts.length === 0) {
      throw failed(
        outcome,
        `node_health_hosts=${scope.hosts} matched no host in inventory/hosts.ini, so nothing was checked`,
      );
    }
    const unhealthy = hosts.filter((host) => recap[host]!.failed > 0 || recap[host]!.unreachable > 0);
    const lines = [
      ...hosts.map((host) => `• ${host}: ${hostState(outcome, host)}`),
      ...scope.nodes
        .filter((node) => !hosts.includes(node))
        .map(
          (node) =>
            `• ${node}: not checked (node_health_hosts=${scope.hosts} does not match it in inventory/hosts.ini)`,
        ),
    ];
    if (unhealthy.length > 0) {
      throw failed(
        outcome,
        `${unhealthy.join(', ')} unhealthy (${unhealthy.length} of ${hosts.length} hosts)\n${lines.join('\n')}`,
        lines,
      );
    }
    if (outcome.exitCode !== 0) throw failed(outcome, outcome.errors[0] ?? exited(outcome), lines);
    const count = hosts.length === 1 ? '1 host' : `${hosts.length} hosts`;
    return `${PLAYBOOK}: ${count} healthy\n${lines.join('\n')}`;
  };
}

function hostState(outcome: PlaybookOutcome, host: string): string {
  const counts = outcome.recap![host]!;
  const failure = outcome.failures.findLast((candidate) => candidate.host === host);
  const msg = failure?.msg ? `: ${failure.msg}` : '';
  if (counts.unreachable > 0) return `unreachable${msg}`;
  if (counts.failed > 0) return `failed at ${failure?.task ?? 'a task'}${msg}`;
  return 'ok';
}

function exited(outcome: PlaybookOutcome): string {
  return `ansible-playbook exited ${outcome.exitCode ?? 'on a signal'}`;
}

function failed(outcome: PlaybookOutcome, reason: string, hosts: readonly string[] = []): ClusterBotError {
  return new ClusterBotError('PLAYBOOK_FAILED', `${PLAYBOOK} failed: ${reason}`, {
    details: {
      playbook: PLAYBOOK,
      exitCode: outcome.exitCode,
      failures: outcome.failures,
      recap: outcome.recap,
      hosts,
    },
  });
}
