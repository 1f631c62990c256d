import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import { createKubeGateway } from '../../src/kube/create-kube-gateway.js';
import { FLUX_SUSPENDED_EARLIER_FACT } from '../../src/lifecycle/cilium/flux-steps.js';
import { loadJobFacts } from '../../src/lifecycle/engine/job-facts.js';
import { type EngineResult, runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import type { KubeGateway } from '../../src/lifecycle/ports/kube-gateway.js';
import type { RemoteShell } from '../../src/lifecycle/ports/remote-shell.js';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { systemClock } from '../../src/system-clock.js';
import { type CrashableCheckpoints, createCrashableCheckpoints } from './crashable-checkpoints.js';
import { type LabWorld, type LabWorldOptions, startLabWorld } from './lab-world.js';
import { createMemoryApprovalDesk } from './memory-approval-desk.js';
import { createMemoryHostKeyPins } from './memory-host-key-pins.js';
import { createMortalShell } from './mortal-shell.js';
import { createRecordingReporter } from './recording-reporter.js';

export interface JobOptions {
  readonly world?: WorldConfig;
  /** Sees every event as the engine emits it, before runPlan goes on (e.g. to crash the worker there). */
  readonly onEvent?: (event: LifecycleEvent) => void;
  /** The job whose Flux suspension still stands, as the worker reads it from Redis before a cilium job runs. */
  readonly fluxSuspendedByJob?: number;
  /** The job's shell around the lab's (e.g. to time each remote command). */
  readonly wrapShell?: (shell: RemoteShell) => RemoteShell;
  /** Its id, as another deployment (or a Redis that lost its data) numbered one too. */
  readonly jobId?: string;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
}

export interface RunUntilDoneOptions extends RunOptions {
  /** Approve each step the plan waits on, as an approver clicking would (default false: return "waiting"). */
  readonly approve?: boolean;
  /** Called when the plan waits on a step, before it is approved (e.g. to change the world meanwhile). */
  readonly onWaiting?: (stepId: string) => Promise<void>;
}

/** One job of the job layer, faked: its approvals, checkpoints and thread are in memory. */
export interface LabJob {
  /** Its id, as the engine sees it. */
  readonly jobId: string;
  /** The name of its folder of detached commands on a host: its id and the random tag the bot records with it. */
  readonly jobFolder: string;
  readonly plan: Plan;
  readonly approvals: ReturnType<typeof createMemoryApprovalDesk>;
  readonly checkpoints: CrashableCheckpoints;
  readonly reporter: ReturnType<typeof createRecordingReporter>;
  /** One pass of runPlan, as one worker attempt. */
  run(options?: RunOptions): Promise<EngineResult>;
  /** Re-enters runPlan after each approval, as the job layer does, until the plan finishes or waits. */
  runUntilDone(options?: RunUntilDoneOptions): Promise<EngineResult>;
  /** Every event as one line of text (the job log's wording). */
  texts(): string[];
}

export interface LifecycleLab extends LabWorld {
  /** The host keys kept for rebuilt nodes, shared by every job of the lab as the worker's Redis is. */
  readonly hostKeyPins: ReturnType<typeof createMemoryHostKeyPins>;
  /** The dev cluster's API through the real gateway, for a test to set the stage or tidy up. */
  readonly devKube: KubeGateway;
  /** A job for command text, parsed as the bot would (unknown names are refused here). */
  startJob(text: string, options?: JobOptions): LabJob;
  /**
   * The worker restarts (or another pod takes the next job): jobs started from now on get a fresh
   * DATA_DIR and cluster gateways that have adopted nothing. Returns the new DATA_DIR.
   */
  restartWorker(): Promise<string>;
}

const MAX_PASSES = 20;

/**
 * The lab world wired to the real adapters in the test's own process: the engine runs plans over
 * real SSH, the real ansible-playbook and the real client-node gateway, with the system clock; only
 * the job layer (approvals, checkpoints, the thread) is in memory.
 */
export async function startLifecycleLab(options: LabWorldOptions = {}): Promise<LifecycleLab> {
  const lab = await startLabWorld(options);
  // Each run its own connections, as the worker's: one per host, closed when the run ends.
  const openShell = () => createSshRemoteShell({ connectTimeoutMs: 3_000, keepaliveIntervalMs: 2_000 });
  // As the worker has them: one gateway per cluster, switching to a kubeconfig adopted under DATA_DIR.
  const workerKubes = (dataDir: string) => createClusterKubes(lab.world, dataDir, { rewatchDelayMs: 200 });
  let kubes = workerKubes(lab.dataDir);
  const hostKeyPins = createMemoryHostKeyPins();
  const devKubeConfig = new KubeConfig();
  devKubeConfig.loadFromFile(lab.devKubeconfigPath);

  // Each job its own id, as the bot numbers them (a detached command's folder on the ops host is per
  // job): the first of a verb is `job-<verb>`, the next ones `job-<verb>-2`, ...
  const jobsOfVerb = new Map<string, number>();
  const nextJobId = (verb: string) => {
    const count = (jobsOfVerb.get(verb) ?? 0) + 1;
    jobsOfVerb.set(verb, count);
    return count === 1 ? `job-${verb}` : `job-${verb}-${count}`;
  };

  function startJob(text: string, jobOptions: JobOptions = {}): LabJob {
    const jobWorld = jobOptions.world ?? lab.world;
    // `plan <command>` wraps the command as the bot does: a read-only job that checks it.
    const planned = text.startsWith('plan ');
    const parsed = parseLifecycleCommand(planned ? text.slice(5) : text, jobWorld);
    if (!parsed.ok) throw new Error(`command refused: ${parsed.error}`);
    const command = parsed.command;
    const plan = buildPlan(
      planned ? { verb: 'plan', cluster: command.cluster, of: command } : command,
      jobWorld,
    );
    const cluster = jobWorld.clusters[plan.cluster]!;
    const approvals = createMemoryApprovalDesk({ timeoutMs: cluster.approvalTimeoutMs });
    const jobId = jobOptions.jobId ?? nextJobId(plan.command.verb);
    const folderTag = randomBytes(6).toString('hex');
    // Recorded now, as the job queue records it with its tag.
    const recordedAt = Date.now();
    const checkpoints = createCrashableCheckpoints();
    const reporter = createRecordingReporter();
    // The thread is the job's store too: what a dead worker would still say reaches nobody.
    const record = reporter.emit.bind(reporter);
    reporter.emit = async (event) => {
      if (checkpoints.crashed) return;
      await record(event);
      jobOptions.onEvent?.(event);
    };
    const recordOutput = reporter.output.bind(reporter);
    reporter.output = (stepId, line) => (checkpoints.crashed ? undefined : recordOutput(stepId, line));
    const seeded =
      jobOptions.fluxSuspendedByJob === undefined
        ? Promise.resolve()
        : loadJobFacts(checkpoints).then((facts) =>
            facts.set(FLUX_SUSPENDED_EARLIER_FACT, jobOptions.fluxSuspendedByJob),
          );
    // A job runs on the worker that took it, whatever restarts after.
    const worker = kubes;
    const run = async (runOptions: RunOptions = {}) => {
      await seeded;
      const shell = openShell();
      return runPlan(plan, {
        jobId,
        folderTag,
        recordedAt,
        world: jobWorld,
        shell: createMortalShell(jobOptions.wrapShell?.(shell) ?? shell, checkpoints.death()),
        kube: worker.kubeFor(cluster.name),
        kubeconfigs: worker,
        hostKeyPins: hostKeyPins.pins,
        clock: systemClock,
        checkpoints,
        approvals: approvals.desk,
        reporter,
        signal: runOptions.signal ?? new AbortController().signal,
      }).finally(() => shell.close());
    };
    return {
      jobId,
      jobFolder: `${jobId}-${folderTag}`,
      plan,
      approvals,
      checkpoints,
      reporter,
      run,
      async runUntilDone(runOptions = {}) {
        for (let pass = 1; ; pass++) {
          const result = await run(runOptions);
          if (result.status !== 'waiting' || !runOptions.approve) return result;
          if (pass === MAX_PASSES) throw new Error(`still waiting after ${pass} approvals: ${result.stepId}`);
          await runOptions.onWaiting?.(result.stepId);
          approvals.approve(result.stepId);
        }
      },
      texts: () => reporter.texts(),
    };
  }

  return {
    ...lab,
    hostKeyPins,
    devKube: createKubeGateway(devKubeConfig, { rewatchDelayMs: 200 }),
    startJob,
    async restartWorker() {
      const dataDir = await mkdtemp(join(tmpdir(), 'cb-restarted-worker-'));
      lab.onStop(() => rm(dataDir, { recursive: true, force: true }));
      kubes = workerKubes(dataDir);
      return dataDir;
    },
  };
}
