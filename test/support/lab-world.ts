import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseWorldConfig } from '../../src/config/load-world-config.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { type FleetCluster, fleetK3sVars } from '../lab/fleet-inventory.js';
import {
  createInfraRepo,
  INFRA_REPO_PATHS,
  type InfraRepo,
  type InfraRepoOptions,
  type LabVars,
} from '../lab/infra-repo.js';
import { type KubeSimHandle, type KubeSimOptions, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { mapK3sConfigDirs } from '../lab/map-k3s-config-dirs.js';
import { ensurePasswordSudoUser } from '../lab/password-sudo-user.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { startSimRelay } from '../lab/start-sim-relay.js';
import { type Cleanup, createCleanupStack } from './cleanup-stack.js';
import { type LabConfigParts, labConfig } from './lab-config.js';
import {
  DEV_ADDRESSES,
  type DevNode,
  PROD_ADDRESSES,
  PROD_INVENTORY_ADDRESSES,
  type ProdNode,
} from './lab-names.js';
import { uniquePrefix } from './redis-prefix.js';
import { startFleet } from './start-fleet.js';

const NODE_ADDRESSES = { ...DEV_ADDRESSES, ...PROD_ADDRESSES };
const PROD_K3S_VARS = [
  '-e',
  'k3s_primary_hosts=k3s_prod_primary',
  '-e',
  'k3s_secondary_hosts=k3s_prod_secondary',
];

export interface LabWorldOptions {
  /** The dev cluster's kube-sim: scenario and delays (default agents Ready after 150 ms). */
  readonly sim?: KubeSimOptions;
  /** lab.yml hooks besides the kube-sim URL and events file, which the lab always sets. */
  readonly labVars?: LabVars;
  /** The infra repo's shape (default: the operators' repo today: only k3s-prod-1 racked, no vault). */
  readonly repo?: Omit<InfraRepoOptions, 'lab'>;
  /**
   * Prod's API. `unformed` (default, the operators' prod today: waiting for its three nodes, no API
   * answers, so k3s.yml would be the prod init) or `formed` (a kube-sim of its own, k3s.yml run for
   * prod): for a test of a prod rollout as it will be once prod is up.
   */
  readonly prod?: 'unformed' | 'formed';
  /** Dev cluster config keys over the lab's (e.g. verifyEvery, approvalTimeout). */
  readonly dev?: LabConfigParts['dev'];
  /** Cluster timeouts ("3s") over the lab's short ones, for both clusters. */
  readonly timeouts?: LabConfigParts['timeouts'];
  /**
   * A fleet of this many more clusters (`fleet01`…, see test/lab/fleet-inventory.ts), formed by
   * k3s.yml, each with its own kube-sim and its nodes on an sshd of their own, and their scheduled
   * verify. The playbooks' kube-sim hooks reach dev's sim only: a fleet runs what reads its API and
   * nodes or runs on the ops host alone (verify, packages, health), not bring-ups or Cilium rollouts.
   */
  readonly fleet?: { readonly count: number; readonly verifyEvery?: string };
  /**
   * How the bot logs in to prod's nodes: as root (default, the lab's shortcut) or `password-sudo`, as
   * the operators' prod: a non-root user whose sudo needs the become password in the vault (with
   * `repo.vault: 'encrypted'`, prod's vaultPasswordFile in the config). The ops host's Ansible then
   * reaches prod's nodes over SSH as that user too (hosts.ini's addresses answer as the nodes), so its
   * become really takes the vault's password.
   */
  readonly prodLogin?: 'root' | 'password-sudo';
  /** Variables the ops host's sessions get (sshd's SetEnv), as the ops user's profile might export them. */
  readonly opsEnv?: Readonly<Record<string, string>>;
}

export interface WorldOverrides {
  readonly devAddresses?: Partial<Record<DevNode, string>>;
  readonly prodAddresses?: Partial<Record<ProdNode, string>>;
  readonly timeouts?: Readonly<Record<string, string>>;
}

export interface LabWorld {
  /** The ops host (127.0.0.1): ansible-playbook, git and tofu run here. */
  readonly ops: SshdLab;
  /** The nodes (dev .11-.13, prod .21-.23) on their own sshd, so rebuilding one leaves the ops key alone. */
  readonly nodes: SshdLab;
  readonly repo: InfraRepo;
  /** The dev cluster's API. */
  readonly sim: KubeSimHandle;
  /** Prod's API, when the lab was asked for a formed prod. */
  readonly prodSim: KubeSimHandle | undefined;
  /** The fleet's clusters and their APIs (none unless asked for). */
  readonly fleet: readonly { readonly cluster: FleetCluster; readonly sim: KubeSimHandle }[];
  readonly devKubeconfigPath: string;
  /** The known_hosts the playbooks' SSH reads on the ops host (ops.ansibleKnownHostsPath). */
  readonly opsKnownHostsPath: string;
  /** DATA_DIR of the bot (adopted kubeconfigs and job logs are kept under it). */
  readonly dataDir: string;
  /** The world config as a file, for a cluster-bot process (CLUSTER_BOT_CONFIG). */
  readonly configPath: string;
  /** The same world config, parsed, for code run in the test's process. */
  readonly world: WorldConfig;
  /** A world like `world` with some prod addresses or timeouts changed. */
  worldWith(overrides: WorldOverrides): WorldConfig;
  /** What `npm start` needs to run on this lab without Slack; its Redis prefix is emptied at stop. */
  consoleEnv(): Record<string, string>;
  /** Rewrites lab.yml with these hooks (the kube-sim URL and events file stay). */
  setLab(vars: LabVars): Promise<void>;
  /** `<playbook> <host>` lines the lab playbooks appended, one per host that finished a role. */
  labEvents(): Promise<string[]>;
  /** Real ansible-playbook runs on the ops host (not --check, --list-tasks, --list-hosts, --syntax-check), as argv text. */
  playbookRuns(): Promise<string[]>;
  /** Registers something to stop with the lab (last in, first out). */
  onStop(...cleanups: Cleanup[]): void;
  stop(): Promise<void>;
}

/**
 * Everything the bot touches, on loopback, built the same way for integration tests, end-to-end
 * tests, the benchmark and the demo: a real sshd as the ops host and another for the nodes (each
 * node address answering to its own name), the miniature infra repo run by the real
 * ansible-playbook, kube-sim for dev (and for prod when asked), and the world config.
 */
export async function startLabWorld(options: LabWorldOptions = {}): Promise<LabWorld> {
  const cleanups = createCleanupStack();
  // A lab stops what it can: a stand-in the test already killed must not fail the teardown.
  const stop = () => cleanups.run().catch(() => undefined);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'cb-lab-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const formedProd = options.prod === 'formed';
    const prodUser =
      options.prodLogin === 'password-sudo' ? (await ensurePasswordSudoUser()).user : undefined;
    const [ops, nodes, sim, prodSim] = await Promise.all([
      startSshd({ addresses: ['127.0.0.1'], ...(options.opsEnv && { env: options.opsEnv }) }),
      startSshd({
        addresses: Object.values(NODE_ADDRESSES),
        otherLogin: prodUser,
        // Ansible goes where hosts.ini says; there the lab's prod nodes answer too.
        ...(prodUser !== undefined && { aliases: prodInventoryAliases() }),
      }),
      startKubeSim({ agentReadyDelayMs: 150, ...options.sim }),
      formedProd ? startKubeSim({ nodes: Object.keys(PROD_ADDRESSES), agentReadyDelayMs: 150 }) : undefined,
    ]);
    cleanups.push(
      () => ops.stop(),
      () => nodes.stop(),
      () => sim.close(),
      () => prodSim?.close(),
    );
    // One sshd plays every node: each answers to its own name (the k3s stand-in prints it in snapshot names).
    for (const [name, address] of Object.entries(NODE_ADDRESSES)) {
      await nodes.setNodeState('node-name', name, address);
    }
    const fleetLab = options.fleet ? await startFleet(options.fleet.count) : undefined;
    cleanups.push(() => fleetLab?.stop());
    const fleet = fleetLab?.clusters ?? [];
    const relay = await startSimRelay(sim);
    cleanups.push(() => relay.close());
    // The ops host's helm and flux stand-ins reach the cluster their KUBECONFIG names (dev's only).
    await ops.setNodeState('kube-sim-url.dev.kubeconfig', relay.url);
    // Dev's servers tell dev's kube-sim when their k3s stops, starts or resets etcd (systemctl, k3s).
    for (const address of Object.values(DEV_ADDRESSES))
      await nodes.setNodeState('kube-sim-url', relay.url, address);
    const eventsFile = join(dir, 'lab-events.txt');
    // Flux is bootstrapped through the ops host's `flux` stand-in, into the cluster its KUBECONFIG names.
    const baseVars: LabVars = {
      lab_kube_sim_url: relay.url,
      lab_events_file: eventsFile,
      lab_flux_cli: true,
    };
    const repo = await createInfraRepo({
      ...options.repo,
      ...(prodUser !== undefined && {
        prodSsh: {
          port: nodes.port,
          user: prodUser,
          privateKeyPath: nodes.clientKeyPath,
          knownHostsPath: nodes.knownHostsPath,
        },
      }),
      fleet: fleet.map(({ cluster }) => cluster),
      lab: { ...baseVars, ...options.labVars },
    });
    cleanups.push(() => repo.cleanup());
    // kube-sim starts as a formed dev cluster: its servers were set up by k3s.yml (and prod's, if formed).
    await formClusters(repo, {
      repo: options.repo,
      formedProd,
      fleet: fleet.map(({ cluster }) => cluster),
    });
    await mapK3sConfigDirs(nodes, repo.root, NODE_ADDRESSES);
    // A cluster Flux has adopted Cilium on serves the commit the ops host has checked out.
    const scenario = options.sim?.scenario;
    if (scenario !== undefined && scenario !== 'healthy' && scenario.helmRelease)
      sim.serveGitRevision(await repo.head());
    if (fleetLab) await mapK3sConfigDirs(fleetLab.nodes, repo.root, fleetLab.addresses);

    const devKubeconfigPath = join(dir, 'dev.kubeconfig');
    const prodKubeconfigPath = join(dir, 'prod.kubeconfig');
    await sim.writeKubeconfig(devKubeconfigPath);
    if (prodSim) await prodSim.writeKubeconfig(prodKubeconfigPath);
    else await writeFile(prodKubeconfigPath, unformedClusterKubeconfig(sim.caPem), { mode: 0o600 });
    const fleetKubeconfigs = await Promise.all(
      fleet.map(async ({ cluster, sim: fleetSim }) => {
        const kubeconfigPath = join(dir, `${cluster.name}.kubeconfig`);
        await fleetSim.writeKubeconfig(kubeconfigPath);
        return { cluster, kubeconfigPath };
      }),
    );
    const dataDir = join(dir, 'data');
    await mkdir(dataDir);

    const parts: LabConfigParts = {
      ops,
      nodes,
      repoRoot: repo.root,
      devKubeconfigPath,
      prodKubeconfigPath,
      opsKnownHostsPath: join(dir, 'ops-known_hosts'),
      dev: options.dev,
      prodUser,
      prodVaultPasswordFile: options.repo?.vault === 'encrypted' ? repo.vaultPasswordFile : undefined,
      timeouts: options.timeouts,
      fleet: fleetLab && {
        clusters: fleetKubeconfigs,
        nodes: fleetLab.nodes,
        verifyEvery: options.fleet?.verifyEvery,
      },
    };
    const configText = stringify(labConfig(parts));
    const configPath = join(dir, 'cluster-bot.yaml');
    await writeFile(configPath, configText);
    const world = parseWorldConfig(configText, 'lab world');
    let consoleEnv: Record<string, string> | undefined;

    return {
      ops,
      nodes,
      repo,
      sim,
      prodSim,
      fleet,
      devKubeconfigPath,
      opsKnownHostsPath: parts.opsKnownHostsPath,
      dataDir,
      configPath,
      world,
      worldWith: (overrides) =>
        parseWorldConfig(
          stringify(
            labConfig({ ...parts, ...overrides, timeouts: { ...parts.timeouts, ...overrides.timeouts } }),
          ),
          'lab world',
        ),
      consoleEnv() {
        if (!consoleEnv) {
          const redis = uniquePrefix('lab');
          cleanups.push(() => redis.cleanup());
          consoleEnv = { REDIS_PREFIX: redis.prefix, CLUSTER_BOT_CONFIG: configPath, DATA_DIR: dataDir };
        }
        return consoleEnv;
      },
      setLab: (vars) => repo.setLab({ ...baseVars, ...vars }),
      labEvents: async () =>
        (await readFile(eventsFile, 'utf8').catch(() => '')).split('\n').filter((line) => line !== ''),
      playbookRuns: async () =>
        (await ops.commands())
          .filter((line) => line.includes(' ansible-playbook '))
          .map((line) => line.slice(line.indexOf(' ansible-playbook ') + 1))
          .filter((line) => !/ --(check|list-tasks|list-hosts|syntax-check)\b/.test(line)),
      onStop: (...more) => cleanups.push(...more),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Each prod node's inventory address, answering as the node's own lab address. */
function prodInventoryAliases(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(PROD_INVENTORY_ADDRESSES).map(([name, alias]) => [
      alias,
      PROD_ADDRESSES[name as ProdNode],
    ]),
  );
}

/** What k3s.yml left on each server (`.lab-out/<host>/k3s`) by repo shape, once per test process. */
const formedOutputs = new Map<string, Promise<string>>();

/**
 * Runs k3s.yml as when the clusters were formed. With the lab hooks off it writes the same files for
 * the same repo shape, so the real run happens once per shape and test process and later labs get a
 * copy: a playbook run less for every lab a test file starts.
 */
async function formClusters(
  repo: InfraRepo,
  shape: { repo?: object; formedProd: boolean; fleet: readonly FleetCluster[] },
): Promise<void> {
  const labOut = join(repo.root, INFRA_REPO_PATHS.labOut);
  const key = JSON.stringify(shape);
  let formed = formedOutputs.get(key);
  if (!formed) {
    formed = (async () => {
      await repo.installK3s();
      if (shape.formedProd) await repo.installK3s(PROD_K3S_VARS);
      if (shape.fleet.length > 0) await repo.installK3s(fleetK3sVars(shape.fleet));
      const copy = await mkdtemp(join(tmpdir(), 'cb-lab-formed-'));
      process.once('exit', () => rmSync(copy, { recursive: true, force: true }));
      await cp(labOut, copy, { recursive: true });
      return copy;
    })();
    formedOutputs.set(key, formed);
    formed.catch(() => formedOutputs.delete(key));
    await formed;
    return;
  }
  await cp(await formed, labOut, { recursive: true });
}

/** Prod before its init: no API answers (127.0.0.1:1 is closed), so k3s.yml counts as the first run. */
function unformedClusterKubeconfig(caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'prod',
        cluster: {
          server: 'https://127.0.0.1:1',
          'certificate-authority-data': Buffer.from(caPem).toString('base64'),
        },
      },
    ],
    users: [{ name: 'cluster-bot', user: { token: 'prod-not-formed' } }],
    contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'cluster-bot' } }],
    'current-context': 'prod',
  });
}
