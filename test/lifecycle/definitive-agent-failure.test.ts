import { describe, expect, it } from 'vitest';
import { definitiveAgentFailure } from '../../src/lifecycle/cilium/definitive-agent-failure.js';
import type { ContainerProblem, PodState } from '../../src/lifecycle/ports/kube-gateway.js';

const agent = (...problems: ContainerProblem[]): PodState => ({
  namespace: 'kube-system',
  name: 'cilium-x',
  node: 'k3s-dev-2',
  ready: false,
  ownerKind: 'DaemonSet',
  mirror: false,
  revisionHash: 'new',
  createdAt: undefined,
  deleting: false,
  problems,
});
const problem = (reason: string, init = true, restarts = 0): ContainerProblem => ({
  container: init ? 'config' : 'cilium-agent',
  init,
  reason,
  restarts,
});

describe('a Cilium agent that fails for good', () => {
  it.each([
    ['CrashLoopBackOff'],
    ['ErrImagePull'],
    ['ImagePullBackOff'],
    ['InvalidImageName'],
    ['CreateContainerConfigError'],
  ])('%s is definitive', (reason) => {
    expect(definitiveAgentFailure(agent(problem(reason)))).toEqual(problem(reason));
  });

  it('an init container that failed twice is definitive, whatever it is doing between restarts', () => {
    expect(definitiveAgentFailure(agent(problem('Error', true, 2)))).toEqual(problem('Error', true, 2));
    expect(definitiveAgentFailure(agent(problem('Error', true, 1)))).toBeUndefined();
  });

  it('an agent still starting, or running but not Ready yet, is not', () => {
    expect(
      definitiveAgentFailure(agent(problem('PodInitializing'), problem('ContainerCreating', false))),
    ).toBeUndefined();
    expect(definitiveAgentFailure(agent(problem('Running, not Ready', false, 3)))).toBeUndefined();
    expect(definitiveAgentFailure(agent())).toBeUndefined();
  });
});
