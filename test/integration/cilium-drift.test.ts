import { AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackGateAlerts } from '../../src/bot/create-slack-gate-alerts.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { runScheduledDrift } from '../../src/jobs/run-scheduled-drift.js';
import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryHostKeyPins } from '../support/memory-host-key-pins.js';
import { createRecordingPoster } from '../support/recording-poster.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

/**
 * One lab world, the drift watch run as the scheduler runs it (real ssh, helm stand-in, kube-sim,
 * Redis), each of the places drifting in turn: alerted once, not repeated within
 * verifyAlertRepeat (1h), cleared once.
 */
let lab: LifecycleLab;
let redis: Redis;
let cleanupRedis: () => Promise<void>;
const recording = createRecordingPoster();
const clock = createInstantClock(Date.UTC(2026, 10, 30, 12, 0));
let run: () => Promise<string>;
let hideDaemonSet = false;

beforeAll(async () => {
  lab = await startLifecycleLab();
  const prefix = uniquePrefix('drift');
  cleanupRedis = prefix.cleanup;
  redis = new Redis(REDIS_URL);
  const kubes = createClusterKubes(lab.world, lab.dataDir, { rewatchDelayMs: 200 });
  const deps = {
    world: lab.world,
    redis,
    keys: redisKeys(prefix.prefix),
    alerts: createSlackGateAlerts(recording.poster, 'C0ALERTS'),
    openShell: () => createSshRemoteShell({ connectTimeoutMs: 3_000, keepaliveIntervalMs: 2_000 }),
    hostKeyPins: createMemoryHostKeyPins().pins,
    kubeconfigs: kubes,
    // The DaemonSet made unreadable for a run, as when the API answers nothing for it.
    kubeFor: (cluster: string) => {
      const kube = kubes.kubeFor(cluster);
      if (!hideDaemonSet) return kube;
      return new Proxy(kube, {
        get: (target, key) => (key === 'readDaemonSet' ? async () => undefined : Reflect.get(target, key)),
      });
    },
    clock,
    logger: createLogger({ level: 'silent', redact: createRedactor() }),
    redact: createRedactor(),
    metrics: createMetrics(),
  };
  run = () => runScheduledDrift('dev', deps);
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await cleanupRedis?.();
  redis?.disconnect();
  await lab?.stop();
});

/** Runs the watch, a minute later again (no repeat), then lets the world heal and runs it once more. */
async function driftOnceAndClear(heal: () => Promise<void>) {
  recording.posts.length = 0;
  expect(await run()).toBe('drift');
  clock.advance(60_000);
  expect(await run()).toBe('drift');
  const whileDrifted = recording.texts();
  await heal();
  clock.advance(60_000);
  expect(await run()).toBe('no drift');
  return { whileDrifted, cleared: recording.texts().slice(whileDrifted.length) };
}

async function editCommitted(path: string, edit: (text: string) => string) {
  const original = await lab.repo.readFile(path);
  await lab.repo.writeFile(path, edit(original));
  await lab.repo.commit(`lab: drift ${path}`);
  return async () => {
    await lab.repo.writeFile(path, original);
    await lab.repo.commit(`lab: back ${path}`);
  };
}

/** Edits the live cilium DaemonSet's maxUnavailable in kube-sim, as a person with kubectl would. */
function setMaxUnavailable(maxUnavailable: number) {
  const kc = new KubeConfig();
  kc.loadFromString(lab.sim.kubeconfig);
  return kc.makeApiClient(AppsV1Api).patchNamespacedDaemonSet(
    {
      namespace: 'kube-system',
      name: 'cilium',
      body: { spec: { updateStrategy: { rollingUpdate: { maxUnavailable } } } },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

describe('the Cilium drift watch', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('finds none on the runbook’s files and the settled cluster; `drift dev` says so in its job', async () => {
    expect(await run()).toBe('no drift');
    expect(recording.texts()).toEqual([]);
    const job = lab.startJob('drift dev');
    expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(job.texts()).toContainEqual(
      expect.stringMatching(
        /^1-drift succeeded: no drift: \d+ parity fields agree across the three files at HEAD, the live release's values and the live DaemonSet$/,
      ),
    );
  });

  it('a file changed at HEAD (the Ansible template): one alert naming field, place and value, one when it clears', async () => {
    const restore = await editCommitted(INFRA_REPO_PATHS.ciliumTemplate, (text) =>
      text.replace('k8sServicePort: 6443 ', 'k8sServicePort: 6444 '),
    );
    const { whileDrifted, cleared } = await driftOnceAndClear(restore);
    expect(whileDrifted).toEqual([
      '🧭 dev: Cilium drift: k8sServicePort (template) drifted (scheduled drift watch): template: k8sServicePort is 6444 (elsewhere 6443). `/cluster drift dev` shows every place.',
    ]);
    expect(cleared).toEqual([
      '✅ dev: Cilium drift: k8sServicePort (template) agrees again (scheduled drift watch)',
    ]);
  });

  it('the reference values.yaml, changed at HEAD; an uncommitted edit is not HEAD and is no drift', async () => {
    const path = INFRA_REPO_PATHS.ciliumValues;
    const original = await lab.repo.readFile(path);
    await lab.repo.writeFile(path, original.replace('routingMode: native', 'routingMode: tunnel'));
    recording.posts.length = 0;
    expect(await run()).toBe('no drift');
    await lab.repo.commit('lab: drift values.yaml');
    const { whileDrifted, cleared } = await driftOnceAndClear(async () => {
      await lab.repo.writeFile(path, original);
      await lab.repo.commit('lab: back values.yaml');
    });
    expect(whileDrifted).toEqual([
      expect.stringContaining(
        'Cilium drift: routingMode (reference) drifted (scheduled drift watch): reference: routingMode is "tunnel" (elsewhere "native")',
      ),
    ]);
    expect(cleared).toHaveLength(1);
  });

  it('the live release’s values (helm get values), changed by hand', async () => {
    const values = lab.sim.helmValues();
    lab.sim.setHelmValues({ ...values, kubeProxyReplacement: false });
    const { whileDrifted, cleared } = await driftOnceAndClear(async () => lab.sim.setHelmValues(values));
    expect(whileDrifted).toEqual([
      expect.stringContaining('live values: kubeProxyReplacement is false (elsewhere true)'),
    ]);
    expect(cleared).toEqual([
      '✅ dev: Cilium drift: kubeProxyReplacement (live values) agrees again (scheduled drift watch)',
    ]);
  });

  it('the live DaemonSet’s updateStrategy, edited in the cluster; re-alerted once verifyAlertRepeat has passed', async () => {
    await setMaxUnavailable(2);
    recording.posts.length = 0;
    expect(await run()).toBe('drift');
    clock.advance(61 * 60_000);
    expect(await run()).toBe('drift');
    expect(recording.texts()).toEqual([
      expect.stringContaining('updateStrategy.rollingUpdate.maxUnavailable (live DaemonSet) drifted'),
      expect.stringContaining('updateStrategy.rollingUpdate.maxUnavailable (live DaemonSet) still drifted'),
    ]);
    expect(recording.texts()[0]).toContain(
      'live DaemonSet: updateStrategy.rollingUpdate.maxUnavailable is 2 (elsewhere 1)',
    );
    await setMaxUnavailable(1);
    recording.posts.length = 0;
    expect(await run()).toBe('no drift');
    expect(recording.texts()).toEqual([
      '✅ dev: Cilium drift: updateStrategy.rollingUpdate.maxUnavailable (live DaemonSet) agrees again (scheduled drift watch)',
    ]);
  });

  it('a DaemonSet it cannot read keeps its drift alert standing, alone or beside another place’s drift', async () => {
    await setMaxUnavailable(2);
    recording.posts.length = 0;
    expect(await run()).toBe('drift');
    hideDaemonSet = true;
    clock.advance(60_000);
    expect(await run()).toBe('unread');
    const restore = await editCommitted(INFRA_REPO_PATHS.ciliumTemplate, (text) =>
      text.replace('k8sServicePort: 6443 ', 'k8sServicePort: 6444 '),
    );
    clock.advance(60_000);
    expect(await run()).toBe('drift');
    expect(recording.texts()).toEqual([
      expect.stringContaining('updateStrategy.rollingUpdate.maxUnavailable (live DaemonSet) drifted'),
      expect.stringContaining('k8sServicePort (template) drifted'),
    ]);
    hideDaemonSet = false;
    await restore();
    await setMaxUnavailable(1);
    recording.posts.length = 0;
    clock.advance(60_000);
    expect(await run()).toBe('no drift');
    expect([...recording.texts()].sort()).toEqual([
      '✅ dev: Cilium drift: k8sServicePort (template) agrees again (scheduled drift watch)',
      '✅ dev: Cilium drift: updateStrategy.rollingUpdate.maxUnavailable (live DaemonSet) agrees again (scheduled drift watch)',
    ]);
  });
});
