import type { ClusterService } from '../../src/service/index.js';

export interface FakeCall {
  readonly op: keyof ClusterService;
  readonly args: readonly unknown[];
}

/**
 * A ClusterService that records what it was asked and answers what the test set: everyone is
 * admitted, nothing is rate limited, and every operation answers a plain success unless overridden.
 */
export function createFakeClusterService(overrides: Partial<ClusterService> = {}) {
  const calls: FakeCall[] = [];
  const defaults: ClusterService = {
    admitCommand: async () => undefined,
    firstDelivery: async () => true,
    admit: async () => undefined,
    submit: async (_actor, command) => ({
      kind: 'queued',
      jobId: 'job-1',
      number: 1,
      cluster: command.cluster,
      command: command.verb,
      position: 0,
    }),
    plan: async () => ({ kind: 'planned', steps: '1. a step', number: 1 }),
    cancel: async (_actor, number) => ({ kind: 'cancelling', number: Number(number) }),
    status: async () => ({ kind: 'status', clusters: [] }),
    jobs: async () => ({ kind: 'jobs', jobs: [] }),
    audit: async () => ({ kind: 'audit', entries: [] }),
    decide: async () => ({ kind: 'already-counted', missing: 1 }),
    rollBackCilium: async () => ({
      kind: 'queued',
      jobId: 'job-2',
      number: 2,
      cluster: 'dev',
      command: 'cilium dev --rollback',
      position: 0,
    }),
    rerun: async () => ({
      kind: 'queued',
      jobId: 'job-3',
      number: 3,
      cluster: 'dev',
      command: 'up dev',
      position: 0,
    }),
    auditRefusal: async () => undefined,
    home: async () => ({ kind: 'home', clusters: [] }),
    jobPage: async () => undefined,
    jobLog: async () => undefined,
    // Each asks `home`, as the real service answers the same for one person either way.
    homes: (actors) => Promise.all(actors.map((actor) => implementation.home(actor))),
    watchHome: async () => undefined,
    homeWatchers: async () => [],
    markHomeShown: async () => true,
    backlog: async () => ({ clusters: [], outbox: { jobs: 0, operations: 0 } }),
  };
  const implementation = { ...defaults, ...overrides };
  const service = Object.fromEntries(
    Object.entries(implementation).map(([op, fn]) => [
      op,
      (...args: unknown[]) => {
        // An optional argument left out or passed as undefined is the same ask.
        while (args.length > 0 && args.at(-1) === undefined) args.pop();
        calls.push({ op: op as keyof ClusterService, args: [...args] });
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as ClusterService;
  /** The operations asked, in order, without the checks every verb makes first. */
  const asked = () => calls.filter((call) => call.op !== 'admit' && call.op !== 'admitCommand');
  return { service, calls, asked };
}
