import { K3S_PATHS } from './ask-servers-for-k3s.js';
import type { ClusterFormation } from './cluster-formation.js';
import { founderProcedure } from './founder-procedure.js';

type Unproven = Extract<ClusterFormation, { kind: 'unproven' }>;

/**
 * Why k3s.yml may not run while the API is down and the servers did not prove a first run: the servers
 * that have k3s (a formed cluster, whatever the founder says), then each server that did not answer.
 * `source` says who names the founder, as founderProcedure words it.
 */
export function unprovenFirstRun(
  cluster: string,
  founder: string,
  source: string,
  { apiError, answers }: Unproven,
): string[] {
  const problems: string[] = [];
  const { withK3s, withoutK3s, unanswered } = answers;
  if (withK3s.length > 0) {
    const founderState = withK3s.includes(founder)
      ? `the bot cannot see whether its founder ${founder} is still an etcd member: bring the API back before k3s.yml runs again`
      : withoutK3s.includes(founder)
        ? `its founder ${founder} has no k3s (wiped?): k3s.yml would run --cluster-init on it beside the etcd the others hold`
        : `its founder ${founder} did not answer: if it was wiped, k3s.yml would run --cluster-init on it beside the etcd the others hold`;
    problems.push(
      `${cluster}'s API does not answer (${apiError}), but k3s is installed on ${withK3s.join(', ')} ` +
        `(${K3S_PATHS.join(' or ')} exists): the cluster is formed, and ${founderState}. ${founderProcedure(founder, source)}`,
    );
  }
  for (const { server, why } of unanswered) {
    problems.push(
      `${cluster}'s API does not answer (${apiError}) and ${server} did not say whether k3s is installed there (${why}): ` +
        `the bot cannot prove a first run, in which alone k3s.yml may found the cluster with --cluster-init on ${founder}`,
    );
  }
  return problems;
}
