import type {
  DetachedRequest,
  DetachedState,
  ExecRequest,
  PresentedHostKey,
  PruneRequest,
  RemoteShell,
  SshTarget,
} from '../../src/lifecycle/ports/remote-shell.js';

export interface ScriptedReply {
  readonly exitCode?: number;
  readonly stdout?: readonly string[];
  readonly stderr?: readonly string[];
  readonly error?: Error;
  /** The command runs until this resolves (a slow playbook), then prints its lines. */
  readonly hold?: Promise<void>;
}

export interface ShellCall {
  readonly target: string;
  readonly hostKey: SshTarget['hostKey'];
  readonly argv: readonly string[];
  readonly cwd?: string | undefined;
  /** Set on a detached command's re-attach (a follow that starts nothing). */
  readonly attach?: true;
  /** On a re-attach: the folder of the run it follows. */
  readonly folder?: string;
}

/**
 * A RemoteShell for unit tests: each exec is answered by the test's handler and recorded; what the
 * handler leaves unanswered succeeds printing nothing. `ansible --version` is Debian 12's, naming the
 * ANSIBLE_CONFIG it is given as its config file, as Ansible does when the repo has its ansible.cfg
 * (the lab's tests cover the rest), and its Python answers with its import path. A detached command is answered as an exec of its argv (the detach
 * protocol is the ssh adapter's, tested on the lab); a detached run is found only where the test put
 * one in `detached` (folder → state). A probe asking for runs started since a time finds only those
 * whose start (epoch ms) the test put in `startedAt`, from that time on; a folder the test put in
 * `runAs` (root's) is found only when probed under that.
 */
export function createScriptedShell(
  handler: (call: ShellCall) => ScriptedReply | undefined,
  hostKey: PresentedHostKey = {
    fingerprint: 'SHA256:bmV3LWhvc3Qta2V5',
    keyType: 'ssh-ed25519',
    publicKey: 'AAAAC3NzaC1lZDI1NTE5AAAAIG5ldy1ob3N0LWtleQ',
  },
): RemoteShell & {
  /** A run's shell is closed at its end: how many times it was. */
  closes: number;
  close(): Promise<void>;
  calls: ShellCall[];
  probes: string[];
  detached: Map<string, DetachedState>;
  startedAt: Map<string, number>;
  runAs: Map<string, readonly string[]>;
  prunes: Array<{ label: string; root: string; jobFolder: string }>;
} {
  const calls: ShellCall[] = [];
  const probes: string[] = [];
  const detached = new Map<string, DetachedState>();
  const startedAt = new Map<string, number>();
  const runAs = new Map<string, readonly string[]>();
  const prunes: Array<{ label: string; root: string; jobFolder: string }> = [];
  const shell = {
    closes: 0,
    async close() {
      shell.closes += 1;
    },
    calls,
    probes,
    detached,
    startedAt,
    runAs,
    prunes,
    async exec(target: SshTarget, request: ExecRequest & { attach?: boolean; folder?: string }) {
      const call: ShellCall = {
        target: target.label,
        hostKey: target.hostKey,
        argv: request.argv,
        cwd: request.cwd,
        ...(request.attach ? { attach: true as const, folder: request.folder } : {}),
      };
      calls.push(call);
      const reply = ansibleVersion(request) ?? handler(call) ?? {};
      await reply.hold;
      if (reply.error) throw reply.error;
      for (const line of reply.stdout ?? []) await request.onLine?.(line, 'stdout');
      for (const line of reply.stderr ?? []) await request.onLine?.(line, 'stderr');
      return { exitCode: reply.exitCode ?? 0, signal: null, durationMs: 1 };
    },
    runDetached: (target: SshTarget, request: DetachedRequest) => shell.exec(target, request),
    probeDetached: async (
      _target: SshTarget,
      folder: string,
      _timeoutMs: number,
      probedAs: readonly string[] = [],
      startedSince?: number,
    ) => {
      if (probedAs.join(' ') !== (runAs.get(folder) ?? []).join(' ')) return 'none';
      const started = startedAt.get(folder);
      if (startedSince !== undefined && (started === undefined || started < startedSince)) return 'none';
      return detached.get(folder) ?? 'none';
    },
    pruneDetached: async (target: SshTarget, request: PruneRequest) => {
      prunes.push({ label: target.label, root: request.root, jobFolder: request.jobFolder });
      return [];
    },
    async probeHostKey(target: Pick<SshTarget, 'host' | 'port'>) {
      probes.push(`${target.host}:${target.port}`);
      return hostKey;
    },
  };
  return shell;
}

/** What Debian 12's ansible-core prints, and what its Python imports from (`sys.path`, the user site). */
function ansibleVersion(request: ExecRequest): ScriptedReply | undefined {
  if (request.argv[0] === '/usr/bin/python3' && request.argv[1] === '-c') {
    return {
      stdout: [
        '/usr/lib/python311.zip',
        '/usr/lib/python3.11',
        '/usr/lib/python3.11/lib-dynload',
        '/usr/local/lib/python3.11/dist-packages',
        '/usr/lib/python3/dist-packages',
        '/home/ops/.local/lib/python3.11/site-packages',
      ],
    };
  }
  if (request.argv.join(' ') !== 'ansible --version') return undefined;
  return { stdout: debianAnsibleVersion(request.env?.ANSIBLE_CONFIG ?? 'None') };
}

/** `ansible --version` of Debian 12's ansible-core for the ops user, reading `configFile`. */
export function debianAnsibleVersion(configFile: string): string[] {
  return [
    'ansible [core 2.14.18]',
    `  config file = ${configFile}`,
    "  configured module search path = ['/home/ops/.ansible/plugins/modules', '/usr/share/ansible/plugins/modules']",
    '  ansible python module location = /usr/lib/python3/dist-packages/ansible',
    '  ansible collection location = /home/ops/.ansible/collections:/usr/share/ansible/collections',
    '  executable location = /usr/bin/ansible',
    '  python version = 3.11.2 (main, Apr 28 2025, 14:11:48) [GCC 12.2.0] (/usr/bin/python3)',
    '  jinja version = 3.1.2',
    '  libyaml = True',
  ];
}
