import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { parseWorldConfig } from '../../src/config/load-world-config.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import { createKubeGateway } from '../../src/kube/create-kube-gateway.js';
import { parseLifecycleCommand } from '../../src/lifecycle/command/parse-lifecycle-command.js';
import { type EngineResult, runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import { buildPlan } from '../../src/lifecycle/plans/build-plan.js';
import type { KubeGateway } from '../../src/lifecycle/ports/kube-gateway.js';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { systemClock } from '../../src/system-clock.js';
import { createInfraRepo, type InfraRepo, type InfraRepoOptions, type LabVars } from '../lab/infra-repo.js';
import { type KubeSimHandle, type KubeSimOptions, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { mapK3sConfigDirs } from '../lab/map-k3s-config-dirs.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { type CrashableCheckpoints, createCrashableCheckpoints } from './crashable-checkpoints.js';
import { type SimRelay, startSimRelay } from './start-sim-relay.js';

export const DEV_ADDRESSES = {
  'k3s-dev-1': '127.0.0.11',
  'k3s-dev-2': '127.0.0.12',
  'k3s-dev-3': '127.0.0.13',
};
export const PROD_ADDRESSES = {
  'k3s-prod-1': '127.0.0.21',
  'k3s-prod-2': '127.0.0.22',
  'k3s-prod-3': '127.0.0.23',
};
/** A loopback address nothing listens on: a prod node that is not racked yet. */
export const UNSERVED_ADDRESS = '127.0.0.29';
/** What the lab's curl answers for a lookup outside the tunnel: the home ISP's address. */
export const HOME_EXIT_IP = '198.51.100.20';
/** Real ansible runs take seconds each, and much longer on a loaded 2-core machine. */
export const LAB_TEST_TIMEOUT_MS = 180_000;
export const TOFU_RESOURCE = (node: string) => `proxmox_vm_qemu.k3s_node["${node}"]`;

export interface LifecycleLabOptions {
  /** kube-sim options for the dev cluster (scenario, delays). */
  readonly sim?: KubeSimOptions;
  /** Infra repo shape (prod inventory lines, vault, BLOCKED placeholders). */
  readonly repo?: Omit<InfraRepoOptions, 'lab'>;
  /** lab.yml hooks besides the kube-sim URL and events file, which the lab always sets. */
  readonly labVars?: LabVars;
}

export interface WorldOverrides {
  readonly prodAddresses?: Partial<Record<keyof typeof PROD_ADDRESSES, string>>;
  /** Cluster timeouts as config durations ("3s"), over the lab's small defaults. */
  readonly timeouts?: Readonly<Record<string, string>>;
}

export interface JobOptions {
  readonly world?: WorldConfig;
  /** Sees every event as the engine emits it, before runPlan goes on (e.g. to crash the worker there). */
  readonly onEvent?: (event: LifecycleEvent) => void;
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

export interface LifecycleLab {
  /** The ops host (127.0.0.1): ansible-playbook, git and tofu run here. */
  readonly ops: SshdLab;
  /** The nodes (dev .11-.13, prod .21-.23) on their own sshd, so rebuilding one leaves the ops key alone. */
  readonly nodes: SshdLab;
  readonly repo: InfraRepo;
  /** The known_hosts the playbooks' SSH reads on the ops host (ops.ansibleKnownHostsPath). */
  readonly opsKnownHostsPath: string;
  /** The worker's DATA_DIR (adopted kubeconfigs are kept under it). */
  readonly dataDir: string;
  readonly sim: KubeSimHandle;
  /** The dev cluster's API through the real gateway, for a test to set the stage or tidy up. */
  readonly devKube: KubeGateway;
  readonly world: WorldConfig;
  /** A world like lab.world with some prod addresses or timeouts changed. */
  worldWith(overrides: WorldOverrides): WorldConfig;
  /** Rewrites lab.yml with these hooks (the kube-sim URL and events file stay). */
  setLab(vars: LabVars): Promise<void>;
  /** `<playbook> <host>` lines the lab playbooks appended, one per host that finished a role. */
  labEvents(): Promise<string[]>;
  /** Real ansible-playbook runs on the ops host (not --check, --list-tasks, --list-hosts, --syntax-check), as argv text. */
  playbookRuns(): Promise<string[]>;
  /** A job for command text, parsed as the bot would (unknown names are refused here). */
  startJob(text: string, options?: JobOptions): LabJob;
  stop(): Promise<void>;
}

const MAX_PASSES = 20;

/**
 * The whole lab wired to the real adapters: sshd for the ops host and the nodes, the lab infra repo
 * driven by the real ansible-playbook, kube-sim behind the real client-node gateway, the system clock.
 */
export async function startLifecycleLab(options: LifecycleLabOptions = {}): Promise<LifecycleLab> {
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'lifecycle-lab-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [ops, nodes, sim] = await Promise.all([
      startSshd({ addresses: ['127.0.0.1'] }),
      startSshd({ addresses: [...Object.values(DEV_ADDRESSES), ...Object.values(PROD_ADDRESSES)] }),
      startKubeSim(options.sim),
    ]);
    cleanups.push(
      () => ops.stop(),
      () => nodes.stop(),
      () => sim.close(),
    );
    // One sshd plays every node: each answers to its own name (the k3s stand-in prints it in snapshot names).
    for (const [name, address] of Object.entries({ ...DEV_ADDRESSES, ...PROD_ADDRESSES })) {
      await nodes.setNodeState('node-name', name, address);
    }
    const relay: SimRelay = await startSimRelay(sim);
    cleanups.push(() => relay.close());
    const eventsFile = join(dir, 'lab-events.txt');
    const baseVars: LabVars = { lab_kube_sim_url: relay.url, lab_events_file: eventsFile };
    const repo = await createInfraRepo({ ...options.repo, lab: { ...baseVars, ...options.labVars } });
    cleanups.push(() => repo.cleanup());
    // kube-sim starts as a formed dev cluster: its servers were set up by k3s.yml.
    await repo.installK3s();
    await mapK3sConfigDirs(nodes, repo.root, { ...DEV_ADDRESSES, ...PROD_ADDRESSES });

    const devKubeconfig = join(dir, 'dev.kubeconfig');
    const prodKubeconfig = join(dir, 'prod.kubeconfig');
    await sim.writeKubeconfig(devKubeconfig);
    await writeFile(prodKubeconfig, unformedClusterKubeconfig(), { mode: 0o600 });

    const opsKnownHostsPath = join(dir, 'ops-known_hosts');
    const worldWith = (overrides: WorldOverrides): WorldConfig =>
      labWorld({ ops, nodes, repo, devKubeconfig, prodKubeconfig, opsKnownHostsPath, ...overrides });
    const world = worldWith({});
    const shell = createSshRemoteShell({ connectTimeoutMs: 3_000, keepaliveIntervalMs: 2_000 });
    const dataDir = join(dir, 'data');
    // As the worker has them: one gateway per cluster, switching to a kubeconfig adopted under DATA_DIR.
    const kubes = createClusterKubes(world, dataDir, { rewatchDelayMs: 200 });
    const kubeFor = (kubeconfigPath: string): KubeGateway => {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(kubeconfigPath);
      return createKubeGateway(kubeConfig, { rewatchDelayMs: 200 });
    };

    return {
      ops,
      nodes,
      repo,
      opsKnownHostsPath,
      dataDir,
      sim,
      devKube: kubeFor(devKubeconfig),
      world,
      worldWith,
      setLab: (vars) => repo.setLab({ ...baseVars, ...vars }),
      labEvents: async () =>
        (await readFile(eventsFile, 'utf8').catch(() => '')).split('\n').filter((line) => line !== ''),
      playbookRuns: async () =>
        (await ops.commands())
          .filter((line) => line.includes(' ansible-playbook '))
          .map((line) => line.slice(line.indexOf(' ansible-playbook ') + 1))
          .filter((line) => !/ --(check|list-tasks|list-hosts|syntax-check)\b/.test(line)),
      startJob(text, jobOptions = {}) {
        const jobWorld = jobOptions.world ?? world;
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
        const checkpoints = createCrashableCheckpoints();
        const reporter = createRecordingReporter();
        const record = reporter.emit.bind(reporter);
        reporter.emit = async (event) => {
          await record(event);
          jobOptions.onEvent?.(event);
        };
        const run = (runOptions: RunOptions = {}) =>
          runPlan(plan, {
            jobId: `job-${plan.command.verb}`,
            world: jobWorld,
            shell,
            kube: kubes.kubeFor(cluster.name),
            kubeconfigs: kubes,
            clock: systemClock,
            checkpoints,
            approvals: approvals.desk,
            reporter,
            signal: runOptions.signal ?? new AbortController().signal,
          });
        return {
          plan,
          approvals,
          checkpoints,
          reporter,
          run,
          async runUntilDone(runOptions = {}) {
            for (let pass = 1; ; pass++) {
              const result = await run(runOptions);
              if (result.status !== 'waiting' || !runOptions.approve) return result;
              if (pass === MAX_PASSES)
                throw new Error(`still waiting after ${pass} approvals: ${result.stepId}`);
              await runOptions.onWaiting?.(result.stepId);
              approvals.approve(result.stepId);
            }
          },
          texts: () => reporter.texts(),
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface WorldParts extends WorldOverrides {
  readonly ops: SshdLab;
  readonly nodes: SshdLab;
  readonly repo: InfraRepo;
  readonly devKubeconfig: string;
  readonly prodKubeconfig: string;
  readonly opsKnownHostsPath: string;
}

function labWorld(parts: WorldParts): WorldConfig {
  const { ops, nodes } = parts;
  const nodeSsh = {
    user: nodes.user,
    port: nodes.port,
    privateKeyPath: nodes.clientKeyPath,
    knownHostsPath: nodes.knownHostsPath,
  };
  const timeouts = {
    playbook: '2m',
    gate: '5s',
    agentReady: '5s',
    drain: '10s',
    sshWait: '20s',
    nodeCommand: '20s',
    ...parts.timeouts,
  };
  const prodAddresses = { ...PROD_ADDRESSES, ...parts.prodAddresses };
  const config = {
    slack: { alertsChannel: 'C0ALERTS', commandChannels: ['C0OPS'] },
    access: { operators: ['U0ALICE', 'U0BOB'] },
    ops: {
      host: '127.0.0.1',
      port: ops.port,
      user: ops.user,
      privateKeyPath: ops.clientKeyPath,
      knownHostsPath: ops.knownHostsPath,
      ansibleKnownHostsPath: parts.opsKnownHostsPath,
      repoPath: parts.repo.root,
    },
    clusters: {
      dev: {
        kubeconfigPath: parts.devKubeconfig,
        approvers: ['U0ALICE', 'U0BOB'],
        allowSelfApproval: true,
        nodeSsh,
        homeExitIps: [HOME_EXIT_IP],
        timeouts,
        nodes: {
          'k3s-dev-1': { address: DEV_ADDRESSES['k3s-dev-1'], roles: ['server', 'primary'] },
          'k3s-dev-2': { address: DEV_ADDRESSES['k3s-dev-2'], roles: ['server'] },
          'k3s-dev-3': {
            address: DEV_ADDRESSES['k3s-dev-3'],
            roles: ['server', 'vpn-egress-gateway'],
            tofuResource: TOFU_RESOURCE('k3s-dev-3'),
          },
        },
      },
      prod: {
        kubeconfigPath: parts.prodKubeconfig,
        approvers: ['U0ALICE', 'U0BOB'],
        requiredApprovals: 2,
        extraVars: {
          k3s_hosts: 'k3s_prod',
          k3s_primary_hosts: 'k3s_prod_primary',
          k3s_secondary_hosts: 'k3s_prod_secondary',
        },
        nodeSsh,
        homeExitIps: [HOME_EXIT_IP],
        timeouts,
        nodes: {
          'k3s-prod-1': { address: prodAddresses['k3s-prod-1'], roles: ['server', 'primary'] },
          'k3s-prod-2': { address: prodAddresses['k3s-prod-2'], roles: ['server'] },
          'k3s-prod-3': { address: prodAddresses['k3s-prod-3'], roles: ['server'] },
        },
      },
    },
  };
  return parseWorldConfig(stringify(config), 'lifecycle lab world');
}

/** Prod before its init: no API answers (127.0.0.1:1 is closed), so k3s.yml counts as the first run. */
function unformedClusterKubeconfig(): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'prod', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } },
    ],
    users: [{ name: 'cluster-bot', user: { token: 'prod-not-formed' } }],
    contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'cluster-bot' } }],
    'current-context': 'prod',
  });
}
