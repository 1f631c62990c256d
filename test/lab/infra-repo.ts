import { execFile, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { type FleetCluster, fleetGroupVars, fleetInventory } from './fleet-inventory.js';
import { PASSWORD_SUDO_USER } from './password-sudo-user.js';

const run = promisify(execFile);
const TEMPLATE_DIR = fileURLToPath(new URL('./infra-repo', import.meta.url));

/** Paths inside the lab repo, relative to its root (the same layout as the operators' repo). */
export const INFRA_REPO_PATHS = {
  ansibleDir: 'infra/ansible',
  inventory: 'infra/ansible/inventory/hosts.ini',
  labVars: 'infra/ansible/lab.yml',
  allVars: 'infra/ansible/group_vars/all.yml',
  prodVars: 'infra/ansible/group_vars/k3s_prod/vars.yml',
  prodVault: 'infra/ansible/group_vars/k3s_prod/vault.yml',
  ciliumTemplate: 'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2',
  ciliumDefaults: 'infra/ansible/roles/cilium/defaults/main.yml',
  ciliumHelmRelease: 'platform/cilium/helmrelease.yaml',
  ciliumValues: 'platform/cilium/values.yaml',
  /** Where the lab tasks write what they would change on a node: `.lab-out/<host>/...`. */
  labOut: '.lab-out',
} as const;

/** The knobs of infra/ansible/lab.yml (see infra-repo/infra/ansible/lab/README.md). */
export interface LabVars {
  /**
   * Fail `task` ("Install k3s" or "k3s_server : Install k3s") on `host` (all if omitted) with `msg`;
   * with `rc`/`stderr` the result looks like a failed command ("non-zero return code" + stderr).
   */
  lab_fail?: { task: string; host?: string; item?: string; msg?: string; rc?: number; stderr?: string }[];
  /** Hosts that come out UNREACHABLE (a real ssh attempt to a closed loopback port). */
  lab_unreachable?: string[];
  /** Extra lines printed by each play's report step. */
  lab_output_lines?: number;
  /** Megabytes of lines each play's report step streams while it runs (not held by ansible). */
  lab_stream_mb?: number;
  /** Seconds cilium.yml's rollout wait blocks (as `rollout status` does while an agent is stuck). */
  lab_rollout_wait_seconds?: number;
  /** Seconds each play's report step sleeps. */
  lab_sleep_seconds?: number;
  /** Print fake secrets of every shape the bot redacts, and add a k3s token to every written file (diffs). */
  lab_print_secrets?: boolean;
  /** Kube simulator base URL: k3s.yml POSTs /_sim/nodes/<host>/join, cilium.yml /_sim/cilium/rollout. */
  lab_kube_sim_url?: string;
  /** Absolute path; each play appends `<playbook> <host>` per host that finished the role. */
  lab_events_file?: string;
  /**
   * flux-bootstrap.yml runs flux_bootstrap_flux_cmd for real, on the ops host: its `flux` stand-in
   * (on the lab sshd's PATH) bootstraps the kube-sim the run's KUBECONFIG names.
   */
  lab_flux_cli?: boolean;
}

export interface InfraRepoOptions {
  /** Prod inventory lines left uncommented. Default ['k3s-prod-1']. */
  prodNodes?: string[];
  /**
   * Create group_vars/k3s_prod/vault.yml: `true` a plain stand-in, `encrypted` as the operators have
   * it (ansible-vault, the password in vaultPasswordFile). Default false.
   */
  vault?: boolean | 'encrypted';
  /** Keep the BLOCKED disk placeholders in group_vars/k3s_prod/vars.yml. Default true. */
  blocked?: boolean;
  /** Clusters of a lab fleet: their inventory groups and group_vars beside dev's and prod's. */
  fleet?: readonly FleetCluster[];
  lab?: LabVars;
  /**
   * Prod's nodes reached as the operators' are: over SSH as a non-root login whose sudo needs the
   * vault's become password (the lab's nodes sshd, its inventory addresses answering as the nodes),
   * instead of ansible_connection=local. Committed with the rest of the repo.
   */
  prodSsh?: ProdSsh;
}

export interface ProdSsh {
  readonly port: number;
  readonly user: string;
  readonly privateKeyPath: string;
  readonly knownHostsPath: string;
}

export interface PlaybookRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr lines in arrival order, unless keepOutput was false. */
  output: string[];
}

export interface RunPlaybookOptions {
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Default true; pass false for huge runs that only stream. */
  keepOutput?: boolean;
  /** Aborting sends SIGTERM to ansible-playbook. */
  signal?: AbortSignal;
  /** Added to ansibleEnv (e.g. ANSIBLE_CALLBACK_RESULT_FORMAT=yaml). */
  env?: Readonly<Record<string, string>>;
}

export interface InfraRepo {
  /** The repo root (a git work tree). */
  readonly root: string;
  /** `<root>/infra/ansible`: the cwd for ansible-playbook. */
  readonly ansibleDir: string;
  /** Environment for ansible-playbook: parseable output, ANSIBLE_HOME/temp dirs private to this repo. */
  readonly ansibleEnv: Readonly<Record<string, string>>;
  /** Rewrites lab.yml (git-excluded: never part of a commit, never a dirty checkout). */
  setLab(vars: LabVars): Promise<void>;
  writeFile(relPath: string, content: string): Promise<void>;
  readFile(relPath: string): Promise<string>;
  removeFile(relPath: string): Promise<void>;
  /** Commits everything in the work tree; returns the new HEAD sha. */
  commit(message: string): Promise<string>;
  head(): Promise<string>;
  /** Uncomments the node's line in inventory/hosts.ini (not committed). */
  enableProdNode(name: string): Promise<void>;
  /** Comments the node's line out of inventory/hosts.ini (not committed). */
  disableProdNode(name: string): Promise<void>;
  /** Creates group_vars/k3s_prod/vault.yml (not committed). */
  addVault(): Promise<void>;
  /** Creates vault.yml encrypted with ansible-vault, holding the lab prod login's become password (not committed). */
  addEncryptedVault(): Promise<void>;
  /** The ops host's vault password file, outside the repo (written by addEncryptedVault). */
  readonly vaultPasswordFile: string;
  /** Replaces the BLOCKED disk placeholders with device names (not committed). */
  resolveBlocked(): Promise<void>;
  /**
   * The operators' fix for prod's Flux path (not committed): prod's own bootstrap entrypoint for
   * clusters/prod, named by flux_bootstrap_flux_cmd in prod's group_vars.
   */
  giveProdItsOwnFluxPath(): Promise<void>;
  /**
   * Runs k3s.yml as it ran when a cluster was formed (dev by default; prod with its extra vars), with
   * every lab hook off: each server's k3s config is then in `.lab-out/<host>/k3s/`, where the lab's
   * nodes read their /etc/rancher/k3s from.
   */
  installK3s(extraVars?: readonly string[]): Promise<void>;
  /** Runs ansible-playbook in ansibleDir with ansibleEnv. */
  runPlaybook(args: readonly string[], options?: RunPlaybookOptions): Promise<PlaybookRun>;
  cleanup(): Promise<void>;
}

/** What the ops host's vault password file holds in the lab. */
const LAB_VAULT_PASSWORD = 'lab-vault-password-1';
const PROD_NODES = ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'];
/** Extra vars that switch every lab hook off (extra vars win over lab.yml). */
const NO_LAB_HOOKS: Required<LabVars> = {
  lab_fail: [],
  lab_unreachable: [],
  lab_output_lines: 0,
  lab_stream_mb: 0,
  lab_rollout_wait_seconds: 0,
  lab_sleep_seconds: 0,
  lab_print_secrets: false,
  lab_kube_sim_url: '',
  lab_events_file: '',
  lab_flux_cli: false,
};
const STREAM_DRAIN_MS = 2000;
const BLOCKED_DEVICE = /\/dev\/BLOCKED-pending-disk-decision-[\w.-]*-(longhorn|etcd)\b/g;
const DECIDED_DEVICE: Record<string, string> = { longhorn: '/dev/nvme1n1', etcd: '/dev/nvme2n1' };

/** Copies the lab infra repo into a fresh temp dir and commits it (HEAD = the options applied). */
export async function createInfraRepo(options: InfraRepoOptions = {}): Promise<InfraRepo> {
  const base = await mkdtemp(join(tmpdir(), 'infra-repo-'));
  const root = join(base, 'repo');
  const ansibleHome = join(base, 'ansible-home');
  const ansibleDir = join(root, INFRA_REPO_PATHS.ansibleDir);
  const vaultPasswordFile = join(base, 'vault-password');
  await cp(TEMPLATE_DIR, root, { recursive: true, verbatimSymlinks: true });
  await mkdir(join(ansibleHome, 'tmp'), { recursive: true });

  const git = async (...args: string[]): Promise<string> =>
    (await run('git', args, { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } })).stdout.trim();
  const pathOf = (relPath: string): string => join(root, relPath);
  const edit = async (relPath: string, change: (text: string) => string): Promise<void> => {
    const before = await readFile(pathOf(relPath), 'utf8');
    await writeFile(pathOf(relPath), change(before));
  };
  const setProdNode = (name: string, enabled: boolean) =>
    edit(INFRA_REPO_PATHS.inventory, (text) => {
      const line = new RegExp(`^(# )?(${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*)$`, 'm');
      if (!line.test(text)) throw new Error(`no inventory line for ${name}`);
      return text.replace(line, enabled ? '$2' : '# $2');
    });

  const reachProdOverSsh = async (ssh: ProdSsh) => {
    await edit(INFRA_REPO_PATHS.inventory, (text) =>
      text.replace(/^(#? ?k3s-prod-\d+ .*) ansible_connection=local/gm, '$1'),
    );
    await edit(
      INFRA_REPO_PATHS.prodVars,
      (text) =>
        `${text}\n# Lab: how the ops host's Ansible reaches prod's nodes (the real repo's are on port 22).\n${stringify(
          {
            ansible_port: ssh.port,
            ansible_user: ssh.user,
            ansible_ssh_private_key_file: ssh.privateKeyPath,
            ansible_ssh_common_args: `-o UserKnownHostsFile=${ssh.knownHostsPath}`,
            ansible_pipelining: true,
          },
        )}`,
    );
    // Tasks on a node run as its login, which reads the lab's node files under this dir.
    await chmod(base, 0o755);
  };
  const ansibleEnv: Record<string, string> = {
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_FORCE_COLOR: '0',
    ANSIBLE_STDOUT_CALLBACK: 'default',
    ANSIBLE_HOME: ansibleHome,
    ANSIBLE_LOCAL_TEMP: join(ansibleHome, 'tmp'),
    ANSIBLE_REMOTE_TEMP: join(ansibleHome, 'tmp'),
  };
  const repo: InfraRepo = {
    root,
    ansibleDir,
    ansibleEnv,
    setLab: (vars) =>
      writeFile(
        pathOf(INFRA_REPO_PATHS.labVars),
        `# Lab hooks (see lab/README.md). Written by test/lab/infra-repo.ts.\n${stringify(vars)}`,
      ),
    writeFile: async (relPath, content) => {
      await mkdir(dirname(pathOf(relPath)), { recursive: true });
      await writeFile(pathOf(relPath), content);
    },
    readFile: (relPath) => readFile(pathOf(relPath), 'utf8'),
    removeFile: (relPath) => rm(pathOf(relPath), { force: true }),
    commit: async (message) => {
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', message);
      return repo.head();
    },
    head: () => git('rev-parse', 'HEAD'),
    enableProdNode: (name) => setProdNode(name, true),
    disableProdNode: (name) => setProdNode(name, false),
    addVault: () =>
      repo.writeFile(
        INFRA_REPO_PATHS.prodVault,
        '# Lab stand-in: the real file is ansible-vault encrypted.\nansible_become_password: lab-not-a-secret\n',
      ),
    vaultPasswordFile,
    async addEncryptedVault() {
      await writeFile(vaultPasswordFile, `${LAB_VAULT_PASSWORD}\n`, { mode: 0o600 });
      await repo.writeFile(
        INFRA_REPO_PATHS.prodVault,
        `ansible_become_password: ${PASSWORD_SUDO_USER.password}\n`,
      );
      await run(
        'ansible-vault',
        ['encrypt', '--vault-password-file', vaultPasswordFile, INFRA_REPO_PATHS.prodVault],
        { cwd: root, env: { ...process.env, ...ansibleEnv } },
      );
      // As the operators' shell points Ansible at it: their own runs decrypt the vault.
      ansibleEnv.ANSIBLE_VAULT_PASSWORD_FILE = vaultPasswordFile;
    },
    resolveBlocked: () =>
      edit(INFRA_REPO_PATHS.prodVars, (text) =>
        text.replace(BLOCKED_DEVICE, (_placeholder, disk: string) => DECIDED_DEVICE[disk]!),
      ),
    async giveProdItsOwnFluxPath() {
      const script = await repo.readFile('bootstrap/flux/bootstrap.sh');
      await repo.writeFile(
        'bootstrap/flux/bootstrap-prod.sh',
        script.replace('clusters/dev', 'clusters/prod'),
      );
      await edit(
        INFRA_REPO_PATHS.prodVars,
        (text) => `${text}flux_bootstrap_flux_cmd: bootstrap/flux/bootstrap-prod.sh\n`,
      );
    },
    async installK3s(extraVars = []) {
      const hooksOff = ['-e', JSON.stringify(NO_LAB_HOOKS)];
      const run = await repo.runPlaybook(['playbooks/k3s.yml', ...extraVars, ...hooksOff]);
      if (run.exitCode !== 0) throw new Error(`k3s.yml failed in the lab repo:\n${run.output.join('\n')}`);
    },
    runPlaybook: (args, runOptions) => runPlaybook(ansibleDir, repo.ansibleEnv, args, runOptions),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };

  try {
    for (const node of PROD_NODES)
      await setProdNode(node, (options.prodNodes ?? ['k3s-prod-1']).includes(node));
    if (options.vault === 'encrypted') await repo.addEncryptedVault();
    else if (options.vault) await repo.addVault();
    if (options.blocked === false) await repo.resolveBlocked();
    if (options.prodSsh) await reachProdOverSsh(options.prodSsh);
    if (options.fleet && options.fleet.length > 0) {
      await edit(INFRA_REPO_PATHS.inventory, (text) => `${text}\n${fleetInventory(options.fleet!)}`);
      for (const cluster of options.fleet)
        await repo.writeFile(`infra/ansible/group_vars/${cluster.group}/vars.yml`, fleetGroupVars(cluster));
    }
    await repo.setLab(options.lab ?? {});
    await git('init', '-q', '-b', 'main');
    // lab.yml holds the test's knobs, not the operators' repo: it never makes the checkout dirty.
    await writeFile(join(root, '.git/info/exclude'), `${INFRA_REPO_PATHS.labVars}\n`);
    await git('config', 'user.name', 'Lab Operator');
    await git('config', 'user.email', '[email protected]');
    await git('config', 'commit.gpgsign', 'false');
    await repo.commit('lab: infra repo miniature');
  } catch (error) {
    await repo.cleanup();
    throw error;
  }
  return repo;
}

function runPlaybook(
  cwd: string,
  env: Readonly<Record<string, string>>,
  args: readonly string[],
  options: RunPlaybookOptions = {},
): Promise<PlaybookRun> {
  const output: string[] = [];
  const child = spawn('ansible-playbook', [...args], {
    cwd,
    env: { ...process.env, ...env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.signal ? { signal: options.signal, killSignal: 'SIGTERM' as const } : {}),
  });
  const follow = (stream: Readable, name: 'stdout' | 'stderr') =>
    new Promise<void>((resolve) => {
      const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('line', (line) => {
        if (options.keepOutput !== false) output.push(line);
        options.onLine?.(line, name);
      });
      // 'close' of the stream, not of readline: it also comes when the stream is destroyed.
      stream.on('close', resolve);
    });
  const streams = Promise.all([follow(child.stdout, 'stdout'), follow(child.stderr, 'stderr')]);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      // An abort surfaces as an AbortError; the exit event still reports how it ended.
      if (error.name !== 'AbortError') reject(error);
    });
    child.on('exit', (exitCode, signal) => {
      // An orphaned ansible worker could keep the pipes open: read what is left, briefly.
      const drained = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, STREAM_DRAIN_MS);
      void streams.then(() => {
        clearTimeout(drained);
        resolve({ exitCode, signal, output });
      });
    });
  });
}
