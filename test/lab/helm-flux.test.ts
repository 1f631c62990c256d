import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { type KubeSimHandle, startKubeSim } from './kube-sim/start-kube-sim.js';
import { NODE_TOOLS_DIR } from './sshd.js';
import { type SimRelay, startSimRelay } from './start-sim-relay.js';

const run = promisify(execFile);
let sim: KubeSimHandle;
let relay: SimRelay;
let stateDir: string;
const KUBECONFIG = '/srv/infra/.cache/dev.kubeconfig';

/** Runs a stand-in as the lab's ForceCommand would: its state folder, the ops host's address. */
async function tool(name: 'helm' | 'flux', ...argv: string[]) {
  const env = {
    PATH: process.env.PATH ?? '',
    LAB_STATE_DIR: stateDir,
    LAB_NODE_ADDRESS: '127.0.0.1',
    KUBECONFIG,
  };
  try {
    const { stdout, stderr } = await run(join(NODE_TOOLS_DIR, name), argv, { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  sim = await startKubeSim({
    agentReadyDelayMs: 60,
    scenario: { brokenAgentOn: 'k3s-dev-2', helmRelease: {} },
  });
  relay = await startSimRelay(sim);
  stateDir = await mkdtemp(join(tmpdir(), 'cb-helm-flux-'));
  await writeFile(join(stateDir, 'kube-sim-url.dev.kubeconfig'), relay.url);
});

afterAll(async () => {
  await relay?.close();
  await sim?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('helm and flux on the lab ops host', () => {
  it('helm history -o json prints helm releaseInfo entries: a settled release, then the upgrade cilium.yml made', async () => {
    const before = await tool('helm', 'history', 'cilium', '-n', 'kube-system', '-o', 'json');
    expect(before.code).toBe(0);
    const entries = JSON.parse(before.stdout) as {
      revision: number;
      status: string;
      chart: string;
      description: string;
      updated: string;
    }[];
    expect(entries.map((e) => Object.keys(e))).toEqual(
      entries.map(() => ['revision', 'updated', 'status', 'chart', 'app_version', 'description']),
    );
    expect(entries.map((e) => [e.revision, e.status, e.chart, e.description])).toEqual([
      [1, 'superseded', 'cilium-1.20.0', 'Install complete'],
      [2, 'deployed', 'cilium-1.20.1', 'Upgrade complete'],
    ]);
    expect(entries[0]!.updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}\+00:00$/);

    sim.startCiliumRollout();
    const after = JSON.parse(
      (await tool('helm', 'history', 'cilium', '-n', 'kube-system', '-o', 'json')).stdout,
    );
    expect(after.map((e: { status: string }) => e.status)).toEqual(['superseded', 'superseded', 'deployed']);
  });

  it('helm rollback starts a rollout back to that revision: the broken agent is replaced by a sound one', async () => {
    await waitFor(
      'the agent on k3s-dev-2 crash-looping',
      () =>
        sim
          .state()
          .pods.some(
            (p) =>
              p.spec.nodeName === 'k3s-dev-2' &&
              p.metadata.labels?.['k8s-app'] === 'cilium' &&
              (p.status.initContainerStatuses?.[0]?.restartCount ?? 0) > 0,
          ),
      { timeoutMs: 10_000 },
    );
    const rolled = await tool('helm', 'rollback', 'cilium', '2', '-n', 'kube-system');
    expect(rolled).toMatchObject({ code: 0, stdout: 'Rollback was a success! Happy Helming!\n' });
    const history = JSON.parse(
      (await tool('helm', 'history', 'cilium', '-n', 'kube-system', '-o', 'json')).stdout,
    );
    expect(history.at(-1)).toMatchObject({
      revision: 4,
      status: 'deployed',
      chart: 'cilium-1.20.1',
      description: 'Rollback to 2',
    });
    await waitFor(
      'every agent back on revision 2 and Ready',
      () => {
        const ds = sim.state().daemonSets.find((d) => d.metadata.name === 'cilium')!;
        return ds.status.numberReady === 3 && ds.status.updatedNumberScheduled === 3;
      },
      { timeoutMs: 10_000 },
    );
  });

  it('refuses a revision the history does not hold, as helm does, and records every call with its KUBECONFIG', async () => {
    const missing = await tool('helm', 'rollback', 'cilium', '9', '-n', 'kube-system');
    expect(missing).toMatchObject({ code: 1, stderr: 'Error: release has no 9 version\n' });
    const otherNamespace = await tool('helm', 'history', 'cilium', '-n', 'default', '-o', 'json');
    expect(otherNamespace).toMatchObject({ code: 1, stderr: 'Error: release: not found\n' });
    const calls = await readFile(join(stateDir, '127.0.0.1', 'helm-calls'), 'utf8');
    expect(calls).toContain(`KUBECONFIG=${KUBECONFIG} rollback cilium 9 -n kube-system\n`);
  });

  it('helm get values -o json prints the deployed values, keys sorted as helm does', async () => {
    const values = await tool('helm', 'get', 'values', 'cilium', '-n', 'kube-system', '-o', 'json');
    const parsed = JSON.parse(values.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      k8sServiceHost: '127.0.1.11',
      updateStrategy: { rollingUpdate: { maxUnavailable: 1 } },
    });
    expect(Object.keys(parsed)).toEqual(Object.keys(parsed).sort());
  });

  it('flux suspend and resume set spec.suspend on the HelmRelease the bot reads over the real API path', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const read = () =>
      custom.getNamespacedCustomObject({
        group: 'helm.toolkit.fluxcd.io',
        version: 'v2',
        namespace: 'kube-system',
        plural: 'helmreleases',
        name: 'cilium',
      }) as Promise<{
        spec: { suspend?: boolean; chart: { spec: { version: string } } };
        status: { conditions: { type: string; status: string }[] };
      }>;
    const first = await read();
    expect(first.spec.suspend).toBeUndefined();
    expect(first.spec.chart.spec.version).toBe('1.20.1');
    expect(first.status.conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True' }),
    );

    const suspended = await tool('flux', 'suspend', 'helmrelease', 'cilium', '-n', 'kube-system');
    expect(suspended).toMatchObject({
      code: 0,
      stderr: '► suspending helmrelease cilium in kube-system namespace\n✔ helmrelease suspended\n',
    });
    expect((await read()).spec.suspend).toBe(true);

    const resumed = await tool('flux', 'resume', 'helmrelease', 'cilium', '-n', 'kube-system');
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('✔ applied revision 1.20.1\n');
    expect((await read()).spec.suspend).toBeUndefined();

    const other = await tool('flux', 'suspend', 'helmrelease', 'hubble', '-n', 'kube-system');
    expect(other).toMatchObject({
      code: 1,
      stderr: '✗ helmreleases.helm.toolkit.fluxcd.io "hubble" not found\n',
    });
  });
});
