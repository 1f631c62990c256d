import type { WorldConfig } from '../config/world-config.js';
import type { LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import { type EngineResult, runPlan } from '../lifecycle/engine/run-plan.js';
import type { ApprovalDesk } from '../lifecycle/ports/approval-desk.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { HostKeyPins } from '../lifecycle/ports/host-key-pins.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import type { KubeconfigKeeper } from '../lifecycle/ports/kubeconfig-keeper.js';
import type { StepFailure } from '../lifecycle/ports/reporter.js';
import { buildPlan } from '../lifecycle/verbs/build-plan.js';
import type { Metrics } from '../metrics/create-metrics.js';
import { meterEvent } from '../metrics/meter-event.js';
import { createMemoryCheckpointStore } from './memory-checkpoint-store.js';
import type { OpenRunShell } from './ports/run-shell.js';

export interface QuietPlanDeps {
  readonly world: WorldConfig;
  /** A shell for each run: its SSH connections live as long as the run. */
  readonly openShell: OpenRunShell;
  readonly kubeFor: (cluster: string) => KubeGateway;
  /**
   * Keeps a kubeconfig fetched from the ops host once proved, for the cluster's gateway to use from
   * then on: after k3s.yml, or when this worker's kubeconfig in use does not reach the cluster.
   */
  readonly kubeconfigs: KubeconfigKeeper;
  /** The host keys kept for rebuilt nodes: a scheduled check reaches them as a job does. */
  readonly hostKeyPins: HostKeyPins;
  readonly clock: Clock;
  readonly redact: (text: string) => string;
  readonly metrics: Metrics;
}

const NO_APPROVALS: ApprovalDesk = {
  state: async () => ({ status: 'none' }),
  request: async () => {
    throw new Error('a scheduled check has no disruptive step');
  },
  expire: async () => undefined,
  void: async () => undefined,
};

/**
 * A read-only plan run on a schedule, with no thread and no job record: its result, the gates it
 * saw failing (gate → what was observed), for the caller to compare with the last run's, and why it
 * failed when it did.
 */
export async function runQuietPlan(
  command: LifecycleCommand,
  meterAs: string,
  deps: QuietPlanDeps,
): Promise<{ result: EngineResult; failingNow: Record<string, string>; failure: StepFailure | undefined }> {
  const failingNow: Record<string, string> = {};
  let failure: StepFailure | undefined;
  const jobId = `${meterAs}-${command.cluster}`;
  const shell = deps.openShell(jobId);
  const result = await runPlan(buildPlan(command, deps.world), {
    jobId,
    world: deps.world,
    shell,
    kube: deps.kubeFor(command.cluster),
    kubeconfigs: deps.kubeconfigs,
    hostKeyPins: deps.hostKeyPins,
    clock: deps.clock,
    checkpoints: createMemoryCheckpointStore(),
    approvals: NO_APPROVALS,
    reporter: {
      async emit(event) {
        meterEvent(deps.metrics, meterAs, command.cluster, event);
        if (event.type === 'gate-failed') failingNow[event.gate] = event.observed;
        if (event.type === 'plan-finished') failure = event.failure;
      },
      output: () => undefined,
    },
    signal: new AbortController().signal,
    redact: deps.redact,
  }).finally(() => shell.close());
  return { result, failingNow, failure };
}
