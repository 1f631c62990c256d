import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import { verifyGatesStep } from '../../src/lifecycle/gates/verify-gates-step.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { loadExampleWorld } from '../support/example-world.js';
import { answerK3sServer, k3sSnapshotTable, SCHEDULED_SNAPSHOT_AT } from '../support/k3s-server-replies.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** The gates as `up`, `cilium` and `reprovision` run them after their change: waiting for convergence. */
const convergingVerify = (): Plan => ({
  command: { verb: 'verify', cluster: 'dev' },
  cluster: 'dev',
  steps: [verifyGatesStep('1-verify', 'dev', 'until-converged')],
});

interface VerifyOptions {
  readonly plan?: Plan;
  readonly world?: WorldConfig;
  readonly shell?: ReturnType<typeof createScriptedShell>;
}

async function verify(
  prepare: (kube: ReturnType<typeof createMemoryKube>) => void,
  options: VerifyOptions = {},
) {
  const kube = createMemoryKube();
  prepare(kube);
  const jobWorld = options.world ?? world;
  const shell = options.shell ?? createScriptedShell((call) => answerK3sServer(call));
  const clock = createInstantClock();
  const reporter = createRecordingReporter();
  const started = clock.now();
  const result = await runPlan(options.plan ?? buildPlan({ verb: 'verify', cluster: 'dev' }, jobWorld), {
    jobId: 'v',
    world: jobWorld,
    shell,
    kube: kube.kube,
    clock,
    checkpoints: createMemoryCheckpointStore(),
    approvals: createMemoryApprovalDesk().desk,
    reporter,
    signal: new AbortController().signal,
  });
  const alerts = reporter.texts().filter((text) => text.startsWith('gate failed: '));
  return { result, alerts, waitedMs: clock.now() - started, texts: reporter.texts() };
}

describe('verify gates', () => {
  it('pass on a healthy cluster without waiting', async () => {
    const { result, alerts, waitedMs, texts } = await verify(() => {});
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
    expect(waitedMs).toBe(0);
    expect(texts).toContain('1-verify ✓ nodes Ready: 3/3 nodes Ready');
  });

  it('the verify command reads once and alerts at once, one alert per failing gate with what it saw', async () => {
    let nodeReads = 0;
    const { result, alerts, waitedMs } = await verify((kube) => {
      const listNodes = kube.kube.listNodes;
      kube.kube.listNodes = async () => {
        nodeReads++;
        return listNodes();
      };
      kube.setNodeReady('k3s-dev-2', false, 'KubeletNotReady');
      kube.patchDaemonSet('kube-system/cilium', { maxUnavailable: 2 });
      kube.daemonSets.set('kube-system/kube-proxy', {
        ...kube.daemonSets.get('kube-system/cilium')!,
        name: 'kube-proxy',
      });
      kube.deployments.set('kube-system/hubble-relay', {
        name: 'hubble-relay',
        namespace: 'kube-system',
        replicas: 1,
        available: 0,
      });
    });
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      'gate failed: nodes Ready: k3s-dev-2 NotReady (KubeletNotReady)',
      'gate failed: Hubble relay up: hubble-relay 0/1 available',
      'gate failed: no kube-proxy: kube-proxy present: DaemonSet kube-system/kube-proxy',
      'gate failed: Cilium maxUnavailable 1: maxUnavailable 2',
    ]);
    expect(waitedMs).toBe(0);
    // Once for every gate: Ready and the kube-proxy gate's k3s.io/node-args judge the same list.
    expect(nodeReads).toBe(1);
  });

  it('after a change, a failing gate is waited on for the gate timeout before it alerts', async () => {
    const { result, alerts, waitedMs } = await verify(
      (kube) => kube.setNodeReady('k3s-dev-2', false, 'KubeletNotReady'),
      { plan: convergingVerify() },
    );
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual(['gate failed: nodes Ready: k3s-dev-2 NotReady (KubeletNotReady)']);
    expect(waitedMs).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('after a change, a gate that recovers within the timeout passes', async () => {
    let reads = 0;
    const { result, alerts } = await verify(
      (kube) => {
        kube.setNodeReady('k3s-dev-3', false);
        const listNodes = kube.kube.listNodes;
        kube.kube.listNodes = async () => {
          if (++reads === 3) kube.setNodeReady('k3s-dev-3', true);
          return listNodes();
        };
      },
      { plan: convergingVerify() },
    );
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
  });

  it('an unreachable API is reported as such, not as a crash', async () => {
    const { result, alerts } = await verify((kube) => kube.setUnreachable(true));
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts[0]).toBe(
      'gate failed: nodes Ready: could not read the Kubernetes API: connect ECONNREFUSED 127.0.0.1:6443',
    );
  });

  it('reads each server’s k3s config through sudo -n when the node user is not root, directly as root', async () => {
    const asOps = createScriptedShell((call) => answerK3sServer(call));
    expect((await verify(() => {}, { shell: asOps })).result).toMatchObject({ outcome: 'succeeded' });
    const reads = (shell: typeof asOps) =>
      shell.calls.filter((call) => call.argv.includes('/etc/rancher/k3s/config.yaml'));
    expect(reads(asOps).map((call) => [call.target, ...call.argv])).toEqual(
      ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'].map((node) => [
        node,
        'sudo',
        '-n',
        'cat',
        '--',
        '/etc/rancher/k3s/config.yaml',
      ]),
    );

    const dev = world.clusters.dev!;
    const rootWorld = {
      ...world,
      clusters: { ...world.clusters, dev: { ...dev, nodeSsh: { ...dev.nodeSsh, user: 'root' } } },
    };
    const asRoot = createScriptedShell((call) => answerK3sServer(call));
    await verify(() => {}, { shell: asRoot, world: rootWorld });
    expect(reads(asRoot).map((call) => call.argv)).toEqual(
      Array(3).fill(['cat', '--', '/etc/rancher/k3s/config.yaml']),
    );
  });

  it('a server whose k3s unit is started with --disable-kube-proxy passes without the config key; =false fails', async () => {
    const flagged = (execStart: string) =>
      createScriptedShell((call) =>
        call.argv[0] === 'systemctl'
          ? {
              stdout: [
                `{ path=/usr/local/bin/k3s ; argv[]=/usr/local/bin/k3s server ${execStart} ; ignore_errors=no }`,
              ],
            }
          : answerK3sServer(call, [
              'flannel-backend: none',
              ...(call.target === 'k3s-dev-3' ? [] : ['disable-kube-proxy: true']),
            ]),
      );
    expect((await verify(() => {}, { shell: flagged('--disable-kube-proxy') })).alerts).toEqual([]);
    expect((await verify(() => {}, { shell: flagged('--disable-kube-proxy=false') })).alerts).toEqual([
      'gate failed: no kube-proxy: ' +
        ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']
          .map(
            (node) =>
              `k3s on ${node} runs kube-proxy in its server process: the k3s.service arguments (--disable-kube-proxy=false)`,
          )
          .join('; '),
    ]);
  });

  it('a server that cannot be read over SSH fails the gate, saying so', async () => {
    const shell = createScriptedShell((call) =>
      call.target === 'k3s-dev-2'
        ? { error: new Error('connect ECONNREFUSED 192.168.1.42:22') }
        : answerK3sServer(call),
    );
    expect((await verify(() => {}, { shell })).alerts).toEqual([
      'gate failed: no kube-proxy: cannot tell how k3s starts on k3s-dev-2: connect ECONNREFUSED 192.168.1.42:22',
    ]);
  });

  it('reads how k3s starts from each Node’s k3s.io/node-args, with no command on any node', async () => {
    const shell = createScriptedShell((call) => answerK3sServer(call));
    const args = (list: string[]) => JSON.stringify(['server', '--flannel-backend', 'none', ...list]);
    const { alerts } = await verify(
      (kube) => {
        kube.nodes.set('k3s-dev-1', {
          ...kube.nodes.get('k3s-dev-1')!,
          k3sNodeArgs: args(['--disable-kube-proxy']),
        });
        // From /etc/rancher/k3s/config.yaml, k3s records `--key=value` as two entries.
        kube.nodes.set('k3s-dev-2', {
          ...kube.nodes.get('k3s-dev-2')!,
          k3sNodeArgs: args(['--disable-kube-proxy', 'true', '--disable-kube-proxy', 'false']),
        });
        kube.nodes.set('k3s-dev-3', {
          ...kube.nodes.get('k3s-dev-3')!,
          k3sNodeArgs: args(['--disable-kube-proxy=true']),
        });
      },
      { shell },
    );
    expect(alerts).toEqual([
      "gate failed: no kube-proxy: k3s on k3s-dev-2 runs kube-proxy in its server process: its Node's k3s.io/node-args (--disable-kube-proxy false)",
    ]);
    // The backup gate lists snapshots as root; nothing reads k3s's config or unit.
    expect(shell.calls.filter((call) => call.argv.includes('cat') || call.argv[0] === 'systemctl')).toEqual(
      [],
    );
  });

  it('a Node without the record, on a login whose sudo needs a password, fails saying why: no password-prompting sudo', async () => {
    const shell = createScriptedShell((call) =>
      call.argv.join(' ') === 'sudo -n true'
        ? { exitCode: 1, stderr: ['sudo: a password is required'] }
        : answerK3sServer(call),
    );
    const { alerts } = await verify(() => {}, { shell });
    const user = world.clusters.dev!.nodeSsh.user;
    expect(alerts.filter((alert) => alert.startsWith('gate failed: no kube-proxy'))).toEqual([
      `gate failed: no kube-proxy: ${['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']
        .map(
          (node) =>
            `cannot tell how k3s starts on ${node}: its Node has no k3s.io/node-args, and reading /etc/rancher/k3s/config.yaml needs root, which ${user}@${node} gets only with a sudo password the bot does not hold`,
        )
        .join('; ')}`,
    ]);
    // No node was asked for the file (the backup gate's root path reads the repo on the ops host).
    expect(shell.calls.filter((call) => call.target !== 'ops' && call.argv.includes('cat'))).toEqual([]);
  });

  it('Cilium without kube-proxy replacement fails the gate, naming the ConfigMap', async () => {
    const { alerts } = await verify((kube) => kube.configMaps.set('kube-system/cilium-config', {}));
    expect(alerts).toEqual([
      'gate failed: no kube-proxy: ConfigMap kube-system/cilium-config has kube-proxy-replacement unset: Cilium does not replace kube-proxy (must be "true")',
    ]);
  });
});

describe('the backup gate (etcd snapshot fresh)', () => {
  const HOUR = 3_600_000;
  const now = SCHEDULED_SNAPSHOT_AT + HOUR;
  /** Each server's `k3s etcd-snapshot ls`, by node: [name, created] rows. */
  const snapshotsShell = (byServer: Record<string, (readonly [string, number])[]>) =>
    createScriptedShell((call) =>
      call.argv.includes('etcd-snapshot')
        ? { stdout: k3sSnapshotTable(byServer[call.target] ?? []) }
        : answerK3sServer(call),
    );

  it('passes when one server has a snapshot younger than snapshotMaxAge, asking no further server', async () => {
    const shell = snapshotsShell({ 'k3s-dev-1': [['etcd-snapshot-k3s-dev-1-1699996400', now - HOUR]] });
    const { result, alerts, texts } = await verify(() => {}, { shell });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
    expect(texts).toContain(
      '1-verify ✓ etcd snapshot fresh: newest etcd snapshot etcd-snapshot-k3s-dev-1-1699996400 on k3s-dev-1, 1h old (at most 24h)',
    );
    expect(
      shell.calls.filter((call) => call.argv.includes('etcd-snapshot')).map((call) => call.target),
    ).toEqual(['k3s-dev-1']);
  });

  it('fails and alerts when every snapshot is older, naming the newest and its age', async () => {
    const shell = snapshotsShell({
      'k3s-dev-1': [['etcd-snapshot-k3s-dev-1-1699909200', now - 25 * HOUR]],
      'k3s-dev-2': [
        ['etcd-snapshot-k3s-dev-2-1699866000', now - 37 * HOUR],
        ['cluster-bot-job-7-k3s-dev-2-1699912800', now - 24 * HOUR],
      ],
    });
    const { result, alerts } = await verify(() => {}, { shell });
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      'gate failed: etcd snapshot fresh: newest etcd snapshot cluster-bot-job-7-k3s-dev-2-1699912800 on k3s-dev-2 is 24h old, older than snapshotMaxAge 24h',
    ]);
  });

  it('fails when no server has a snapshot, and names a server that could not list them', async () => {
    const shell = createScriptedShell((call) =>
      call.argv.includes('etcd-snapshot')
        ? call.target === 'k3s-dev-3'
          ? {
              exitCode: 1,
              stderr: ['time="2023-11-14T22:13:20Z" level=fatal msg="etcd datastore is not started"'],
            }
          : { stdout: k3sSnapshotTable([]) }
        : answerK3sServer(call),
    );
    const { result, alerts } = await verify(() => {}, { shell });
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      'gate failed: etcd snapshot fresh: no etcd snapshot on any server (k3s-dev-1, k3s-dev-2, k3s-dev-3); not listed: k3s-dev-3: k3s etcd-snapshot ls failed (time="2023-11-14T22:13:20Z" level=fatal msg="etcd datastore is not started")',
    ]);
  });

  it("follows the cluster's snapshotMaxAge", async () => {
    const dev = { ...world.clusters.dev!, snapshotMaxAgeMs: 30 * 60_000 };
    const strict = { ...world, clusters: { ...world.clusters, dev } };
    const shell = snapshotsShell({ 'k3s-dev-1': [['etcd-snapshot-k3s-dev-1-1699996400', now - HOUR]] });
    const { alerts } = await verify(() => {}, { shell, world: strict });
    expect(alerts).toEqual([
      'gate failed: etcd snapshot fresh: newest etcd snapshot etcd-snapshot-k3s-dev-1-1699996400 on k3s-dev-1 is 1h old, older than snapshotMaxAge 30m',
    ]);
  });

  it("is not a change's gate: the verify after a bring-up or rollout lists no snapshots", async () => {
    const shell = snapshotsShell({});
    const { result } = await verify(() => {}, { shell, plan: convergingVerify() });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(shell.calls.filter((call) => call.argv.includes('etcd-snapshot'))).toEqual([]);
  });
});
