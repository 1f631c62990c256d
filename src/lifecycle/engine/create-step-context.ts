import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { Clock } from '../ports/clock.js';
import type { HostKeyPins } from '../ports/host-key-pins.js';
import type { KubeGateway } from '../ports/kube-gateway.js';
import type { KubeconfigKeeper } from '../ports/kubeconfig-keeper.js';
import type { RemoteShell } from '../ports/remote-shell.js';
import type { Reporter } from '../ports/reporter.js';
import { kubeWithFallback } from './kube-with-fallback.js';
import { reachThroughOpsHost } from './reach-through-ops-host.js';

/** What the engine hands on to every step (part of its EngineDeps). */
export interface StepContextSources {
  readonly jobId: string;
  /**
   * Random, recorded with the job: with its id it names the job's detached folders on hosts
   * (jobFolderName), which its id alone would share with a foreign job of the same id. Absent for a
   * job recorded without one (by an older version): its folders keep the bare id.
   */
  readonly folderTag?: string | undefined;
  /**
   * When the job was recorded (epoch ms): a run in its legacy folder started before it is a foreign
   * job's (findDetachedRun). Absent where nothing recorded the job: no legacy run is then followed.
   */
  readonly recordedAt?: number | undefined;
  readonly world: WorldConfig;
  readonly shell: RemoteShell;
  readonly kube: KubeGateway;
  /** Where a kubeconfig fetched after k3s.yml is kept; without it such a run fails, saying so. */
  readonly kubeconfigs?: KubeconfigKeeper | undefined;
  /** Where an accepted host key is kept for later jobs; without it such a run fails, saying so. */
  readonly hostKeyPins?: HostKeyPins | undefined;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly reporter: Reporter;
}

const NO_KUBECONFIGS: KubeconfigKeeper = {
  adopt: async (cluster) => {
    throw new ClusterBotError('KUBE_UNREACHABLE', `this run cannot switch ${cluster} to another kubeconfig`);
  },
};

const NO_HOST_KEY_PINS: HostKeyPins = {
  read: async () => ({}),
  keep: async (cluster, node) => {
    throw new ClusterBotError('INTERNAL', `this run cannot keep a host key for ${node} of ${cluster}`);
  },
};

/** What a run reads once, at its start, and hands every step. */
export interface RunSources {
  readonly facts: StepContext['facts'];
  readonly keptHostKeys: StepContext['keptHostKeys'];
  readonly repoFiles: StepContext['repoFiles'];
}

/** The host-key pins a run uses: the dependency, or one that keeps nothing and says so. */
export function hostKeyPinsOf(deps: StepContextSources): HostKeyPins {
  return deps.hostKeyPins ?? NO_HOST_KEY_PINS;
}

/** Where a step's shown lines are kept: beside the steps' own records, one small record each. */
const shownKey = (stepId: string) => `_shown:${stepId}`;

/** How this step stands in its job: interrupted by a stopped worker, and where its records are. */
export interface StepResume {
  readonly interrupted: boolean;
  readonly checkpoints: CheckpointStore;
}

/** One step's context: the ports, and reporting bound to this step. */
export function createStepContext(
  deps: StepContextSources,
  cluster: ClusterConfig,
  run: RunSources,
  step: Step,
  resume: StepResume,
  approvedBy: readonly string[] = [],
): StepContext {
  const { reporter } = deps;
  const { checkpoints } = resume;
  // Once a step: a worker that proved no kubeconfig of its own (new, restarted) fetches the ops host's.
  let reached: Promise<boolean> | undefined;
  const ctx: StepContext = {
    jobId: deps.jobId,
    folderTag: deps.folderTag,
    recordedAt: deps.recordedAt,
    stepId: step.id,
    interrupted: resume.interrupted,
    shown: {
      read: async () => Number((await checkpoints.get(shownKey(step.id)))?.data?.lines ?? 0),
      write: (lines) => checkpoints.set(shownKey(step.id), { status: 'running', data: { lines } }),
    },
    world: deps.world,
    cluster,
    shell: deps.shell,
    kube: step.fetchesKubeconfig
      ? deps.kube
      : kubeWithFallback(deps.kube, (failure) => {
          reached ??= reachThroughOpsHost(ctx, failure);
          return reached;
        }),
    kubeconfigs: deps.kubeconfigs ?? NO_KUBECONFIGS,
    clock: deps.clock,
    signal: deps.signal,
    facts: run.facts,
    keptHostKeys: run.keptHostKeys,
    repoFiles: run.repoFiles,
    hostKeyPins: hostKeyPinsOf(deps),
    approvedBy,
    progress: (text, agent) =>
      reporter.emit({ type: 'step-progress', stepId: step.id, text, ...(agent ? { agent } : {}) }),
    output: (line) => reporter.output(step.id, line),
    note: (text) => reporter.emit({ type: 'note', stepId: step.id, text }),
    gateFailed: (gate, observed) =>
      reporter.emit({ type: 'gate-failed', stepId: step.id, cluster: cluster.name, gate, observed }),
  };
  return ctx;
}
