import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, chmod, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { quoteShellArgument } from '../../src/lifecycle/quote-argv.js';
import { NODE_DETACHED_ROOT } from '../../src/lifecycle/remote/detached-folder.js';
import { DETACH_SCRIPT_NAME, RUNNER_SCRIPT, START_SCRIPT } from '../../src/ssh/detach-scripts.js';
import { fingerprintOfKey } from '../../src/ssh/fingerprint-of-key.js';
import { WRAPPED_COMMAND_NAME } from '../../src/ssh/wrap-in-process-group.js';
import { labMs } from '../support/lab-time.js';
import { createPortPicker } from './pick-port.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';
/** Per node: `from<TAB>to` lines, the paths the ForceCommand rewrites in every command. */
const PATH_MAP = 'lab-paths';
/** Under the state dir: one file per alias address, holding the node address it stands for. */
const ALIASES = 'aliases';
export const NODE_TOOLS_DIR = fileURLToPath(new URL('./node-tools', import.meta.url));

export interface SshdOptions {
  /** Loopback addresses to listen on; each stands for one node (default ['127.0.0.1']). */
  readonly addresses?: readonly string[];
  /** Reuse this ed25519 host key instead of generating one. */
  readonly hostKeyPath?: string;
  /** Directories put on the remote PATH after the node-tools stand-ins. */
  readonly extraPath?: readonly string[];
  /**
   * A user besides root who may log in (same key): the lab's dir is then open to it and the state
   * and command log writable, so its commands run and record as root's do.
   */
  readonly otherLogin?: string;
  /**
   * More addresses to listen on, each another way to the node at its value (`alias → address`):
   * a command dialled there runs as that node's, with its state (as the inventory's ansible_host
   * reaches the same machine the bot's SSH does).
   */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Channels one connection may have open at once (sshd's MaxSessions); default 100. */
  readonly maxSessions?: number;
  /** Variables every session gets (sshd's SetEnv), as an ops user's profile might export them. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface SshdLab {
  readonly port: number;
  readonly addresses: readonly string[];
  readonly user: string;
  readonly dir: string;
  readonly clientKeyPath: string;
  /** One `[addr]:port ssh-ed25519 ...` line per address, for the first host key (never updated). */
  readonly knownHostsPath: string;
  /** `SHA256:...` of the newest host key: the one all addresses start with, then the last rotateHostKey's. */
  readonly hostKeyFingerprint: string;
  /** Where the node-tools stand-ins read and record state ($LAB_STATE_DIR on the remote side). */
  readonly stateDir: string;
  /**
   * Commands clients ran, in order. A line built by src/ssh is shown as the command it wraps
   * (`cd -- '/x' && 'prog' 'arg'`), a detached start as the command it starts; anything else as received.
   */
  commands(): Promise<string[]>;
  /**
   * The SSH connections the bot's commands came on (each wrapped in src/ssh's process-group
   * prelude, which Ansible's own SSH is not), once each, in the order first used: the address
   * dialled and the client's port.
   */
  botConnections(): Promise<LabConnection[]>;
  /** The clients' ports of the connections established to this lab's sshd right now. */
  openConnections(): Promise<number[]>;
  /** The clients' ports of the connections whose client ended them with a disconnect message. */
  disconnectedByClient(): Promise<number[]>;
  /** Sets a state key for every node, or only for `address`; null removes it. */
  setNodeState(key: string, value: string | null, address?: string): Promise<void>;
  /** What a node sees for `key` (its own value, else the shared one), or what its tools recorded. */
  readNodeState(key: string, address?: string): Promise<string | undefined>;
  /**
   * The node at `address` sees the folder `to` of this machine at the absolute path `from` (e.g. its
   * /etc/rancher/k3s): every command it is asked to run reads `from` as `to`.
   */
  mapNodePath(address: string, from: string, to: string): Promise<void>;
  /**
   * The folder of this machine that the node at `address` sees as /var/lib/cluster-bot, where the
   * bot runs its detached root commands: each node its own, under the lab's dir.
   */
  nodeDetachedRoot(address: string): string;
  /** `[address]:port type base64` for the key that address presents now. */
  knownHostsLine(address: string): Promise<string>;
  /**
   * Restarts the sshd of `address` (default: every address) on the same port with a new host key (a
   * rebuilt node; the other nodes keep theirs); known_hosts stays. Returns the new key's fingerprint.
   */
  rotateHostKey(address?: string): Promise<string>;
  /** SIGKILLs the per-connection sshd processes (not the listeners): clients see their connection drop. */
  killSessions(): Promise<void>;
  /** SIGKILLs the listeners (sessions live on, as with a crashed sshd). */
  kill(): Promise<void>;
  /** Starts the listeners kill() ended again, on the same port with the same keys (sshd restarted). */
  revive(): Promise<void>;
  /** Ends the listeners gracefully, every session and command they started, and removes the temp dir. */
  stop(): Promise<void>;
}

export interface LabConnection {
  readonly address: string;
  readonly clientPort: number;
}

export async function startSshd(options: SshdOptions = {}): Promise<SshdLab> {
  const addresses = options.addresses ?? ['127.0.0.1'];
  const aliases = options.aliases ?? {};
  const listening = [...addresses, ...Object.keys(aliases)];
  const dir = await mkdtemp(join(tmpdir(), 'cluster-bot-sshd-'));
  const stateDir = join(dir, 'state');
  const paths = {
    clientKey: join(dir, 'client_key'),
    authorizedKeys: join(dir, 'authorized_keys'),
    knownHosts: join(dir, 'known_hosts'),
    wrapper: join(dir, 'force-command.sh'),
    commandLog: join(dir, 'commands.log'),
    connectionLog: join(dir, 'connections.log'),
  };
  // One sshd per address, all on one port: each node has its own host key, so rebuilding one
  // (rotateHostKey(address)) changes no other node's key. They start with the same key.
  const perAddress = (address: string) => ({
    config: join(dir, `sshd_config-${address}`),
    hostKey: join(dir, `host_key-${address}`),
    pid: join(dir, `sshd-${address}.pid`),
  });
  // Every sshd appends to the one log.
  const sshdLog = join(dir, 'sshd.log');
  await mkdir(stateDir);
  await mkdir('/run/sshd', { recursive: true });
  // Another login reaches the wrapper and authorized_keys through dir, and writes state and the log.
  const shared = options.otherLogin !== undefined;
  const share = async (folder: string) => {
    if (shared) await chmod(folder, 0o777);
  };
  if (shared) {
    await chmod(dir, 0o755);
    await share(stateDir);
    await writeFile(paths.commandLog, '', { mode: 0o666 });
    await chmod(paths.commandLog, 0o666);
  }

  await keygen(paths.clientKey);
  await writeFile(paths.authorizedKeys, await readFile(`${paths.clientKey}.pub`));
  // `host_key(.pub)`: the newest key, the one hostKeyFingerprint names.
  const newestKey = join(dir, 'host_key');
  // Copied, because sshd refuses a private key other users can read.
  const copyKey = async (from: string, to: string) => {
    await writeFile(to, await readFile(from), { mode: 0o600 });
    await writeFile(`${to}.pub`, await readFile(`${from}.pub`));
  };
  if (options.hostKeyPath) await copyKey(options.hostKeyPath, newestKey);
  else await keygen(newestKey);
  for (const address of listening) await copyKey(newestKey, perAddress(address).hostKey);
  for (const [alias, address] of Object.entries(aliases)) {
    await mkdir(join(stateDir, ALIASES), { recursive: true });
    await writeFile(join(stateDir, ALIASES, alias), address);
  }
  const nodeDetachedRoot = (address: string) => join(stateDir, address, 'var-lib-cluster-bot');
  await writeFile(paths.connectionLog, '', { mode: 0o666 });
  await chmod(paths.connectionLog, 0o666);
  await writeFile(
    paths.wrapper,
    wrapperScript(paths.commandLog, paths.connectionLog, stateDir, options.extraPath ?? []),
    { mode: 0o755 },
  );

  let hostKeyFingerprint = await fingerprintOfPublicKeyFile(`${newestKey}.pub`);
  const listeners = new Map<string, ChildProcess>();
  let port = 0;
  // Session processes seen when a listener went away, so stop() can still end them.
  const orphans: ProcessId[] = [];

  const launch = async (address: string): Promise<void> => {
    const own = perAddress(address);
    await writeFile(
      own.config,
      sshdConfig(port, address, { ...paths, ...own }, options.maxSessions ?? 100, options.env ?? {}),
    );
    const log = await open(sshdLog, 'a');
    try {
      const child = spawn(SSHD, ['-D', '-e', '-f', own.config], {
        stdio: ['ignore', 'ignore', log.fd],
      });
      listeners.set(address, child);
      await waitForBanner(child, address, port, sshdLog);
    } finally {
      await log.close();
    }
  };

  const endListener = async (address: string, signal: NodeJS.Signals): Promise<void> => {
    const child = listeners.get(address);
    listeners.delete(address);
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    orphans.push(...(await descendants(child.pid)));
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  const endListeners = (signal: NodeJS.Signals) =>
    Promise.all([...listeners.keys()].map((address) => endListener(address, signal)));
  const sessions = async () =>
    (
      await Promise.all(
        [...listeners.values()].map((child) => (child.pid === undefined ? [] : descendants(child.pid))),
      )
    ).flat();

  for (let attempt = 1; ; attempt++) {
    port = await freePort(listening);
    try {
      await Promise.all(listening.map(launch));
      break;
    } catch (error) {
      await endListeners('SIGKILL');
      if (attempt === 5) throw error;
    }
  }
  const knownHostsLine = async (address: string) =>
    `[${address}]:${port} ${knownHostsKey(await readFile(`${perAddress(address).hostKey}.pub`, 'utf8'))}`;
  await writeFile(
    paths.knownHosts,
    (await Promise.all(listening.map(knownHostsLine))).map((line) => `${line}\n`).join(''),
  );

  const lab: SshdLab = {
    port,
    addresses,
    user: userInfo().username,
    dir,
    clientKeyPath: paths.clientKey,
    knownHostsPath: paths.knownHosts,
    stateDir,
    get hostKeyFingerprint() {
      return hostKeyFingerprint;
    },
    async commands() {
      const log = await readFile(paths.commandLog, 'utf8').catch(() => '');
      return log
        .split('\0')
        .slice(0, -1)
        .map((line) => unwrapDetachedStart(unwrapCommand(line)));
    },
    async botConnections() {
      const seen = new Map<string, LabConnection>();
      for (const line of (await readFile(paths.connectionLog, 'utf8')).split('\n')) {
        const [, clientPort, address] = line.split(' ');
        if (address !== undefined && !seen.has(`${address} ${clientPort}`))
          seen.set(`${address} ${clientPort}`, { address, clientPort: Number(clientPort) });
      }
      return [...seen.values()];
    },
    async openConnections() {
      return establishedClientPorts(port);
    },
    async disconnectedByClient() {
      const log = await readFile(sshdLog, 'utf8');
      return [...log.matchAll(/^Received disconnect from \S+ port (\d+):/gm)].map((match) =>
        Number(match[1]),
      );
    },
    async setNodeState(key, value, address) {
      const folder = address === undefined ? stateDir : join(stateDir, address);
      await mkdir(folder, { recursive: true });
      await share(folder);
      if (value === null) await rm(join(folder, key), { force: true });
      else await writeFile(join(folder, key), value);
    },
    async readNodeState(key, address = addresses[0]) {
      for (const file of [join(stateDir, address ?? '', key), join(stateDir, key)]) {
        const value = await readFile(file, 'utf8').catch(() => undefined);
        if (value !== undefined) return value;
      }
      return undefined;
    },
    async mapNodePath(address, from, to) {
      if (/[|\t\n&\\]/.test(from + to)) throw new Error(`lab sshd: cannot map ${from} to ${to}`);
      await mkdir(join(stateDir, address), { recursive: true });
      await share(join(stateDir, address));
      await appendFile(join(stateDir, address, PATH_MAP), `${from}\t${to}\n`);
    },
    nodeDetachedRoot,
    knownHostsLine,
    async rotateHostKey(address) {
      const rotated = address === undefined ? addresses : [address];
      await rm(newestKey, { force: true });
      await rm(`${newestKey}.pub`, { force: true });
      await keygen(newestKey);
      for (const each of rotated) {
        await endListener(each, 'SIGTERM');
        await copyKey(newestKey, perAddress(each).hostKey);
        await launch(each);
      }
      hostKeyFingerprint = await fingerprintOfPublicKeyFile(`${newestKey}.pub`);
      return hostKeyFingerprint;
    },
    async killSessions() {
      await killAll(
        [...(await sessions()), ...orphans].filter((entry) => entry.comm === 'sshd'),
        'SIGKILL',
      );
    },
    kill: async () => {
      await endListeners('SIGKILL');
    },
    async revive() {
      for (const address of listening) if (!listeners.has(address)) await launch(address);
    },
    async stop() {
      const running = await sessions();
      await endListeners('SIGTERM');
      // Commands whose session is gone are no longer below a listener; the wrapper's variable marks them.
      const tagged = await processesWithEnvironment(`LAB_STATE_DIR=${stateDir}`);
      await killAll([...running, ...orphans, ...tagged], 'SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (const address of addresses)
    await lab.mapNodePath(address, NODE_DETACHED_ROOT, nodeDetachedRoot(address));
  return lab;
}

/** `type base64` from a .pub file (its comment dropped). */
function knownHostsKey(publicKey: string): string {
  const [type, blob] = publicKey.trim().split(/\s+/);
  return `${type} ${blob}`;
}

async function keygen(path: string): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'cluster-bot-lab', '-f', path]);
}

async function fingerprintOfPublicKeyFile(path: string): Promise<string> {
  const [, blob] = (await readFile(path, 'utf8')).trim().split(/\s+/);
  return fingerprintOfKey(Buffer.from(blob ?? '', 'base64'));
}

function sshdConfig(
  port: number,
  address: string,
  paths: { hostKey: string; authorizedKeys: string; pid: string; wrapper: string },
  maxSessions: number,
  env: Readonly<Record<string, string>>,
): string {
  return [
    `Port ${port}`,
    `ListenAddress ${address}`,
    `HostKey ${paths.hostKey}`,
    `PidFile ${paths.pid}`,
    `AuthorizedKeysFile ${paths.authorizedKeys}`,
    'AuthenticationMethods publickey',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'UsePAM no',
    // Temp dirs have loose modes.
    'StrictModes no',
    'UseDNS no',
    'PrintMotd no',
    'PrintLastLog no',
    // Root's .bashrc starts pyenv (1.5 s per command) unless SHLVL is already set.
    // One line: sshd takes the first SetEnv it reads and ignores the rest.
    ['SetEnv SHLVL=1', ...Object.entries(env).map(([name, value]) => `${name}=${value}`)].join(' '),
    'MaxStartups 100:30:200',
    `MaxSessions ${maxSessions}`,
    'LogLevel VERBOSE',
    `ForceCommand ${paths.wrapper}`,
    '',
  ].join('\n');
}

/**
 * The ForceCommand: logs the client's command (NUL-terminated, commands may hold newlines), tells the
 * stand-ins where their state is and which node address was dialled, gives the node its own view of
 * the mapped paths (see mapNodePath), then runs the command with the stand-ins first on PATH.
 */
function wrapperScript(
  commandLog: string,
  connectionLog: string,
  stateDir: string,
  extraPath: readonly string[],
): string {
  const path = [NODE_TOOLS_DIR, ...extraPath].map(quoteShellArgument).join(':');
  return [
    '#!/bin/sh',
    `printf '%s\\000' "$SSH_ORIGINAL_COMMAND" >>${quoteShellArgument(commandLog)}`,
    `case $SSH_ORIGINAL_COMMAND in "${WRAPPED_PREFIX}"*) printf '%s\\n' "$SSH_CONNECTION" >>${quoteShellArgument(connectionLog)} ;; esac`,
    // SSH_CONNECTION is "client-address client-port server-address server-port".
    'set -- $SSH_CONNECTION',
    `LAB_STATE_DIR=${quoteShellArgument(stateDir)}`,
    'LAB_NODE_ADDRESS=$3',
    `if [ -f "$LAB_STATE_DIR/${ALIASES}/$3" ]; then LAB_NODE_ADDRESS=$(cat "$LAB_STATE_DIR/${ALIASES}/$3"); fi`,
    `PATH=${path}:$PATH`,
    'export LAB_STATE_DIR LAB_NODE_ADDRESS PATH',
    'command=$SSH_ORIGINAL_COMMAND',
    `map="$LAB_STATE_DIR/$LAB_NODE_ADDRESS/${PATH_MAP}"`,
    'if [ -f "$map" ]; then',
    "  while IFS='\t' read -r from to; do",
    '    command=$(printf \'%s\\n\' "$command" | sed "s|$from|$to|g")',
    '  done <"$map"',
    'fi',
    'exec /bin/sh -c "$command"',
    '',
  ].join('\n');
}

const WRAPPED_PREFIX = "exec sh -c '";
/** What a detached start puts between the command's environment and its argv (then the folder). */
const DETACHED_START = ` sh -c ${quoteShellArgument(START_SCRIPT)} ${DETACH_SCRIPT_NAME} ${quoteShellArgument(RUNNER_SCRIPT)} `;

/** `... env X=y sh -c '<start>' cluster-bot-detached '<runner>' <folder> prog args` → `... env X=y prog args`. */
function unwrapDetachedStart(command: string): string {
  // A start with no cd or env before it (a node's) begins with the script itself.
  const padded = ` ${command}`;
  const at = padded.indexOf(DETACHED_START);
  if (at === -1) return command;
  const rest = padded.slice(at + DETACHED_START.length);
  return `${padded.slice(0, at)} ${rest.slice(rest.indexOf(' ') + 1)}`.trimStart();
}
const WRAPPED_MARKER = `' ${WRAPPED_COMMAND_NAME} `;

/** `exec sh -c '<prelude>' cluster-bot-exec '<command>'` (or a bare word such as `true`) → `<command>`. */
function unwrapCommand(line: string): string {
  const marker = line.indexOf(WRAPPED_MARKER);
  if (!line.startsWith(WRAPPED_PREFIX) || marker === -1) return line;
  const command = line.slice(marker + WRAPPED_MARKER.length);
  if (!command.startsWith("'")) return command;
  if (!command.endsWith("'")) return line;
  return command.slice(1, -1).replaceAll("'\\''", "'");
}

/** A port free on every address: bind 0 on the first, then check the others can take it too. */
/** sshd binds its port after the lab picked it: see pick-port.ts. */
const freePort = createPortPicker(10_000);

/** Polls the address for the SSH banner until a deadline; fails early if sshd exits. */
async function waitForBanner(child: ChildProcess, address: string, port: number, logPath: string) {
  const deadline = Date.now() + labMs(10_000);
  while (!(await hasBanner(address, port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const log = await readFile(logPath, 'utf8').catch(() => '');
      throw new Error(`sshd did not become ready on port ${port}:\n${log.split('\n').slice(-15).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Another process holding the address would answer the banner and mislead.
  if ((await readFile(logPath, 'utf8')).includes(`port ${port}: Address already in use`)) {
    throw new Error(`port ${port} is taken on ${address}`);
  }
}

function hasBanner(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = '';
    const done = (ready: boolean) => {
      socket.destroy();
      resolve(ready);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\n')) done(received.startsWith('SSH-2.0-'));
    });
    socket.on('end', () => done(false));
  });
}

/** Established TCP connections whose local end is `port` (a server's side): their peers' ports. */
async function establishedClientPorts(port: number): Promise<number[]> {
  const ESTABLISHED = '01';
  const table = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'utf8').catch(() => '')),
  );
  return table
    .flatMap((text) => text.split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, local, , state]) =>
        state === ESTABLISHED && Number.parseInt(local?.split(':')[1] ?? '', 16) === port,
    )
    .map(([, , remote]) => Number.parseInt(remote?.split(':')[1] ?? '', 16));
}

interface ProcessId {
  readonly pid: number;
  readonly comm: string;
  /** Start time in clock ticks: with the pid, it names one process even after pids are reused. */
  readonly startTime: string;
}

async function readProcess(pid: number): Promise<(ProcessId & { ppid: number }) | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  const commEnd = stat.lastIndexOf(')');
  const fields = stat.slice(commEnd + 2).split(' ');
  return {
    pid,
    comm: stat.slice(stat.indexOf('(') + 1, commEnd),
    ppid: Number(fields[1]),
    startTime: fields[19] ?? '',
  };
}

async function processTable(): Promise<Array<ProcessId & { ppid: number }>> {
  const entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const table = await Promise.all(entries.map((name) => readProcess(Number(name))));
  return table.filter((entry) => entry !== undefined);
}

/** Every process below `root` (sessions, their shells, the commands they run). */
async function descendants(root: number): Promise<ProcessId[]> {
  const table = await processTable();
  const found: ProcessId[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of table) {
      if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push(entry);
        grew = true;
      }
    }
  }
  return found;
}

/** Processes whose environment holds exactly this `NAME=value`. */
async function processesWithEnvironment(variable: string): Promise<ProcessId[]> {
  const table = await processTable();
  const environments = await Promise.all(
    table.map((entry) => readFile(`/proc/${entry.pid}/environ`, 'utf8').catch(() => '')),
  );
  return table.filter((_, index) => `\0${environments[index]}`.includes(`\0${variable}\0`));
}

async function killAll(processes: readonly ProcessId[], signal: NodeJS.Signals): Promise<void> {
  for (const entry of processes) {
    const current = await readProcess(entry.pid);
    if (current?.startTime !== entry.startTime) continue;
    try {
      process.kill(entry.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
