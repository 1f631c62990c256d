import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimRelay } from '../integration/start-sim-relay.js';
import { createSlackDriver, type FakeSlack, startFakeSlack } from '../lab/fake-slack/index.js';
import { createInfraRepo, type InfraRepo, type InfraRepoOptions, type LabVars } from '../lab/infra-repo.js';
import { type KubeSimHandle, type KubeSimOptions, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { mapK3sConfigDirs } from '../lab/map-k3s-config-dirs.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { uniquePrefix } from './redis-prefix.js';
import { type BotProcess, startBotProcess } from './start-bot-process.js';
import { type LabConfigOptions, writeLabConfig } from './write-lab-config.js';

export const BOT_TOKEN = 'xoxb-1111-2222-slacklab';
export const SIGNING_SECRET = 'slack-lab-signing-secret-0123';
const APP_TOKEN = 'xapp-1-A0LAB-0000-socketmode';
const PROD_ADDRESSES = ['127.0.0.21', '127.0.0.22', '127.0.0.23'];
const PROD_K3S_VARS = [
  '-e',
  'k3s_primary_hosts=k3s_prod_primary',
  '-e',
  'k3s_secondary_hosts=k3s_prod_secondary',
];
const NODE_ADDRESSES = {
  'k3s-dev-1': '127.0.0.11',
  'k3s-dev-2': '127.0.0.12',
  'k3s-dev-3': '127.0.0.13',
  'k3s-prod-1': '127.0.0.21',
  'k3s-prod-2': '127.0.0.22',
  'k3s-prod-3': '127.0.0.23',
};

export interface LabWorld {
  readonly slack: FakeSlack;
  readonly sim: KubeSimHandle;
  readonly prodSim: KubeSimHandle;
  readonly repo: InfraRepo;
  readonly sshd: SshdLab;
  /** The environment a cluster-bot process needs to run against this lab. */
  readonly processEnv: Record<string, string>;
  /** The same without Slack tokens: what `npm start` needs to open the console on this lab. */
  readonly consoleEnv: Record<string, string>;
  /** Registers something to stop with the lab (last in, first out). */
  onStop(step: () => Promise<unknown>): void;
  stop(): Promise<void>;
}

export interface SlackLab extends LabWorld {
  readonly driver: ReturnType<typeof createSlackDriver>;
  readonly bot: BotProcess;
  /** Worker-only processes, when the lab was asked for them (the bot then only takes Slack requests). */
  readonly workers: readonly BotProcess[];
}

export interface SlackLabOptions {
  readonly sim?: KubeSimOptions;
  readonly labVars?: LabVars;
  /** The infra repo's shape (default: the operators' repo today: only k3s-prod-1 racked, no vault). */
  readonly repo?: Omit<InfraRepoOptions, 'lab'>;
  readonly dev?: LabConfigOptions['cluster'];
  readonly timeouts?: Record<string, string>;
  readonly env?: Record<string, string>;
  /** Deliver over Socket Mode (app token) instead of HTTP. */
  readonly socketMode?: boolean;
  /** Run this many worker processes beside a bot-only process (default: one process doing both). */
  readonly workers?: number;
  /** Run the compiled `dist/main.js` (after `npm run build`) instead of the sources through tsx. */
  readonly built?: boolean;
}

/** The real bot process (and workers) against the lab, driven as Slack would. */
export async function startSlackLab(options: SlackLabOptions = {}): Promise<SlackLab> {
  const world = await startLabWorld(options);
  try {
    const workers: BotProcess[] = [];
    for (let i = 0; i < (options.workers ?? 0); i++) {
      const worker = await startBotProcess(
        { ...world.processEnv, CLUSTER_BOT_ROLE: 'worker' },
        { built: options.built },
      );
      world.onStop(() => worker.stop());
      workers.push(worker);
    }
    const bot = await startBotProcess(
      { ...world.processEnv, ...(workers.length > 0 ? { CLUSTER_BOT_ROLE: 'bot' } : {}) },
      { built: options.built },
    );
    world.onStop(() => bot.stop());
    const { slack } = world;
    if (options.socketMode)
      await slack.waitFor(() => slack.socket.openConnections > 0 || undefined, { timeoutMs: 15_000 });
    const driver = createSlackDriver({
      slack,
      eventsUrl: options.socketMode ? 'socket' : bot.eventsUrl,
      signingSecret: SIGNING_SECRET,
    });
    return { ...world, driver, bot, workers };
  } catch (error) {
    await world.stop();
    throw error;
  }
}

/**
 * Everything the bot touches, on loopback: fake Slack, kube-sim for dev and prod, a real sshd as
 * ops host and nodes, the infra repo run by ansible, a Redis prefix of its own.
 */
export async function startLabWorld(options: SlackLabOptions = {}): Promise<LabWorld> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'cb-slacklab-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const sshd = await startSshd({
      addresses: ['127.0.0.1', '127.0.0.11', '127.0.0.12', '127.0.0.13', ...PROD_ADDRESSES],
    });
    stops.push(() => sshd.stop());
    const sim = await startKubeSim({ agentReadyDelayMs: 150, ...options.sim });
    stops.push(() => sim.close());
    const prodSim = await startKubeSim({
      nodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'],
      agentReadyDelayMs: 150,
    });
    stops.push(() => prodSim.close());
    const relay = await startSimRelay(sim);
    stops.push(() => relay.close());
    const repo = await createInfraRepo({
      ...options.repo,
      lab: { lab_kube_sim_url: relay.url, ...options.labVars },
    });
    stops.push(() => repo.cleanup());
    // kube-sim starts as a formed dev cluster: its servers were set up by k3s.yml.
    await repo.installK3s();
    // The prod kube-sim is formed too: its servers in hosts.ini were set up by k3s.yml as well.
    await repo.installK3s(PROD_K3S_VARS);
    await mapK3sConfigDirs(sshd, repo.root, NODE_ADDRESSES);
    await sim.writeKubeconfig(join(dir, 'dev.kubeconfig'));
    await prodSim.writeKubeconfig(join(dir, 'prod.kubeconfig'));
    const slack = await startFakeSlack({
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      channels: ['C0OPS', 'C0ALERTS'],
      userGroups: { S0PLATFORM: ['U0DAVE'] },
    });
    stops.push(() => slack.close());
    const redis = uniquePrefix('slacklab');
    stops.push(() => redis.cleanup());
    const ops = {
      host: '127.0.0.1',
      port: sshd.port,
      user: sshd.user,
      privateKeyPath: sshd.clientKeyPath,
      knownHostsPath: sshd.knownHostsPath,
      repoPath: repo.root,
    };
    const config = await writeLabConfig({
      dir,
      kubeconfigPath: join(dir, 'dev.kubeconfig'),
      ops,
      nodeSshPort: sshd.port,
      timeouts: options.timeouts,
      cluster: options.dev,
      clusters: {
        prod: {
          kubeconfigPath: join(dir, 'prod.kubeconfig'),
          approvers: ['U0ALICE', 'U0BOB', 'U0CAROL'],
          requiredApprovals: 2,
          allowSelfApproval: false,
          extraVars: {
            k3s_hosts: 'k3s_prod',
            k3s_primary_hosts: 'k3s_prod_primary',
            k3s_secondary_hosts: 'k3s_prod_secondary',
          },
          nodeSsh: { port: sshd.port },
          timeouts: { gate: '3s', agentReady: '5s' },
          nodes: {
            'k3s-prod-1': { address: PROD_ADDRESSES[0], roles: ['server', 'primary'] },
            'k3s-prod-2': { address: PROD_ADDRESSES[1], roles: ['server'] },
            'k3s-prod-3': { address: PROD_ADDRESSES[2], roles: ['server'] },
          },
        },
      },
    });
    const processEnv: Record<string, string> = {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      ...(options.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_API_URL: slack.apiUrl,
      REDIS_PREFIX: redis.prefix,
      CLUSTER_BOT_CONFIG: config,
      DATA_DIR: dir,
      ...options.env,
    };
    return {
      slack,
      sim,
      prodSim,
      repo,
      sshd,
      processEnv,
      consoleEnv: Object.fromEntries(
        Object.entries(processEnv).filter(([name]) => !name.startsWith('SLACK_')),
      ),
      onStop: (step) => stops.push(step),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
