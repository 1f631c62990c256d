import type { ContainerProblem, PodState } from '../ports/kube-gateway.js';

/** "pod cilium-x on k3s-dev-2: init container config CrashLoopBackOff (dial tcp …), 4 restarts" */
export function describePodProblem(
  pod: PodState,
  problem: ContainerProblem | undefined = pod.problems[0],
): string {
  const where = `pod ${pod.name} on ${pod.node ?? 'no node'}`;
  if (!problem) return `${where}: not Ready`;
  const kind = problem.init ? 'init container' : 'container';
  const message = problem.message ? ` (${problem.message.trim().split('\n').slice(-1)[0]})` : '';
  const restarts = problem.restarts > 0 ? `, ${problem.restarts} restarts` : '';
  return `${where}: ${kind} ${problem.container} ${problem.reason}${message}${restarts}`;
}
