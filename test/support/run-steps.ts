import type { WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import type { ApprovalDesk } from '../../src/lifecycle/ports/approval-desk.js';
import type { CheckpointStore } from '../../src/lifecycle/ports/checkpoint-store.js';
import type { KubeGateway } from '../../src/lifecycle/ports/kube-gateway.js';
import type { KubeconfigKeeper } from '../../src/lifecycle/ports/kubeconfig-keeper.js';
import type { OperatorLog } from '../../src/lifecycle/ports/operator-log.js';
import type { RemoteShell } from '../../src/lifecycle/ports/remote-shell.js';
import type { Redact } from '../../src/log/create-redactor.js';
import { createInstantClock } from './manual-clock.js';
import { createMemoryApprovalDesk } from './memory-approval-desk.js';
import { createMemoryKube } from './memory-kube.js';
import { createRecordingReporter } from './recording-reporter.js';
import { createScriptedShell } from './scripted-shell.js';

export interface StepsRun {
  readonly world: WorldConfig;
  readonly steps: readonly Step[];
  /** Default: a verify of dev (the command only names the job). */
  readonly command?: LifecycleCommand;
  /** Default: a shell that answers every command with exit 0 and no output. */
  readonly shell?: RemoteShell;
  /** Default: a healthy three-node dev cluster. */
  readonly kube?: KubeGateway;
  readonly kubeconfigs?: KubeconfigKeeper;
  /** Default: a new desk. Pass one (with the checkpoints) to run the same job again after a decision. */
  readonly approvals?: ApprovalDesk;
  readonly checkpoints?: CheckpointStore;
  /** Prune the job's detached folders at its end, as the job processor has the engine do. */
  readonly pruneDetachedOlderThanMinutes?: number;
  /** Where the engine tells the operator what the thread does not say (a prune that failed). */
  readonly log?: OperatorLog;
  readonly redact?: Redact;
  /** Default: JOB_FOLDER_TAG. Undefined: a job recorded by a version before folder tags. */
  readonly folderTag?: string | undefined;
}

/** The job's folder tag, as the job queue records a random one with each job. */
export const JOB_FOLDER_TAG = '0123456789ab';

/** A few steps through the real engine with in-memory fakes of every other port and an instant clock. */
export async function runSteps(run: StepsRun) {
  const command = run.command ?? { verb: 'verify', cluster: 'dev' };
  const reporter = createRecordingReporter();
  const result = await runPlan(
    { command, cluster: command.cluster, steps: run.steps },
    {
      jobId: 'job-1',
      folderTag: 'folderTag' in run ? run.folderTag : JOB_FOLDER_TAG,
      world: run.world,
      shell: run.shell ?? createScriptedShell(() => undefined),
      kube: run.kube ?? createMemoryKube().kube,
      kubeconfigs: run.kubeconfigs,
      clock: createInstantClock(),
      checkpoints: run.checkpoints ?? createMemoryCheckpointStore(),
      approvals: run.approvals ?? createMemoryApprovalDesk().desk,
      reporter,
      signal: new AbortController().signal,
      pruneDetachedOlderThanMinutes: run.pruneDetachedOlderThanMinutes,
      log: run.log,
      redact: run.redact,
    },
  );
  return { result, reporter };
}
