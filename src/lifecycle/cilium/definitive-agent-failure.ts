import type { ContainerProblem, PodState } from '../ports/kube-gateway.js';

/** Waiting reasons that do not clear up by waiting: the kubelet is already backing off or cannot start it. */
const DEFINITIVE_REASONS = new Set([
  'CrashLoopBackOff',
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
]);
/** An init container that has failed this often is failing, whatever its state between restarts says. */
const INIT_RESTARTS_DEFINITIVE = 2;

/**
 * The container problem that means this agent will not come up, however long agentReady is; undefined
 * while it may still be starting (pulling, initialising, not Ready yet).
 */
export function definitiveAgentFailure(pod: PodState): ContainerProblem | undefined {
  return pod.problems.find(
    (problem) =>
      DEFINITIVE_REASONS.has(problem.reason) ||
      (problem.init && problem.restarts >= INIT_RESTARTS_DEFINITIVE),
  );
}
