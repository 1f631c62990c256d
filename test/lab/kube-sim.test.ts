import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1DaemonSet,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { type KubeSimHandle, type KubeSimOptions, startKubeSim } from './kube-sim/start-kube-sim.js';

const started: KubeSimHandle[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

async function lab(options: KubeSimOptions = {}) {
  const sim = await startKubeSim({
    agentReadyDelayMs: 80,
    nodeReadyDelayMs: 80,
    crashLoopIntervalMs: 60,
    ...options,
  });
  started.push(sim);
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig);
  return { sim, kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api) };
}

/** A client-node watch that records every event and how it ended. */
async function record<T>(kc: KubeConfig, path: string, query: Record<string, string>) {
  const events: { type: string; object: T }[] = [];
  let ended: { error: unknown } | undefined;
  const controller = await new Watch(kc).watch(
    path,
    query,
    (type, object: T) => events.push({ type, object }),
    (error: unknown) => {
      ended = { error };
    },
  );
  return { events, ended: () => ended, stop: () => controller.abort() };
}

const ciliumPods = async (core: CoreV1Api) =>
  (await core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'k8s-app=cilium' })).items;
const isReady = (pod: V1Pod) =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const rolledOut = (ds: V1DaemonSet) => {
  const s = ds.status;
  return (
    s !== undefined &&
    (ds.metadata?.generation ?? 0) <= (s.observedGeneration ?? 0) &&
    (s.updatedNumberScheduled ?? 0) >= s.desiredNumberScheduled &&
    (s.numberAvailable ?? 0) >= s.desiredNumberScheduled
  );
};

async function expectApiError(promise: Promise<unknown>, code: number): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiException);
  expect((error as ApiException<unknown>).code).toBe(code);
  const body = (error as ApiException<unknown>).body;
  return typeof body === 'string' && body !== '' ? JSON.parse(body) : body;
}

describe('kube-sim with @kubernetes/client-node', () => {
  it('serves a settled three-node k3s cluster and discovery', async () => {
    const { sim, core, apps } = await lab();
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    const node = await core.readNode({ name: 'k3s-dev-2' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    });
    expect(node.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'k3s-dev-2',
      'node-role.kubernetes.io/control-plane': 'true',
      'node-role.kubernetes.io/etcd': 'true',
    });
    expect(node.spec?.unschedulable).toBeUndefined();

    const cilium = await apps.readNamespacedDaemonSet({ name: 'cilium', namespace: 'kube-system' });
    expect(cilium.spec?.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    expect(cilium.spec?.template.spec?.initContainers?.[0]?.name).toBe('config');
    expect(cilium.status).toMatchObject({
      desiredNumberScheduled: 3,
      numberReady: 3,
      numberAvailable: 3,
      updatedNumberScheduled: 3,
    });
    expect(rolledOut(cilium)).toBe(true);
    const hubble = await apps.readNamespacedDeployment({ name: 'hubble-relay', namespace: 'kube-system' });
    expect(hubble.status?.availableReplicas).toBe(1);
    const daemonSets = await apps.listDaemonSetForAllNamespaces();
    expect(daemonSets.items.map((d) => d.metadata?.name)).toEqual(['cilium']);

    const pods = await ciliumPods(core);
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    const hash = pods[0]?.metadata?.labels?.['controller-revision-hash'];
    expect(pods[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'cilium',
      controller: true,
    });
    const revisions = await apps.listNamespacedControllerRevision({
      namespace: 'kube-system',
      labelSelector: 'k8s-app=cilium',
    });
    expect(revisions.items.map((r) => [r.metadata?.name, r.revision])).toEqual([[`cilium-${hash}`, 1]]);

    const discovery = await fetchJson(sim, '/apis');
    expect((discovery.groups as { name: string }[]).map((g) => g.name)).toEqual([
      'apps',
      'policy',
      'helm.toolkit.fluxcd.io',
    ]);
    expect((await fetchJson(sim, '/version')).gitVersion).toMatch(/^v1\.36\.\d+\+k3s1$/);
  });

  it('filters pods by node and labels across namespaces', async () => {
    const { core } = await lab();
    const onNode = await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=k3s-dev-2' });
    expect(onNode.items.length).toBeGreaterThan(1);
    expect(onNode.items.every((p) => p.spec?.nodeName === 'k3s-dev-2')).toBe(true);
    const web = await core.listPodForAllNamespaces({ labelSelector: 'app=web,pod-template-hash' });
    expect(web.items.map((p) => p.spec?.nodeName).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(web.metadata?.resourceVersion).toMatch(/^\d+$/);
    await expectApiError(core.listPodForAllNamespaces({ fieldSelector: 'spec.bogus=1' }), 400);
  });

  it('cordons and uncordons with a merge patch, and deletes a node (its pods go with it)', async () => {
    const { core, sim } = await lab();
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const before = (
      await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=k3s-dev-1' })
    ).items.map((p) => p.metadata?.uid);
    const cordoned = await core.patchNode(
      { name: 'k3s-dev-1', body: { spec: { unschedulable: true } } },
      merge,
    );
    expect(cordoned.spec?.unschedulable).toBe(true);
    await waitFor('the unschedulable taint', async () =>
      (await core.readNode({ name: 'k3s-dev-1' })).spec?.taints?.some(
        (t) => t.key === 'node.kubernetes.io/unschedulable',
      ),
    );
    const after = (
      await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=k3s-dev-1' })
    ).items.map((p) => p.metadata?.uid);
    expect(after).toEqual(before); // cordon moves nothing
    const uncordoned = await core.patchNode(
      { name: 'k3s-dev-1', body: { spec: { unschedulable: false } } },
      merge,
    );
    expect(uncordoned.spec?.unschedulable).toBeUndefined();

    await core.deleteNode({ name: 'k3s-dev-3' });
    await expectApiError(core.readNode({ name: 'k3s-dev-3' }), 404);
    await waitFor(
      'pods of the deleted node gone',
      async () =>
        (await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=k3s-dev-3' })).items.length === 0,
    );
    expect(sim.requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/nodes/k3s-dev-3')).toBe(
      true,
    );
  });

  it('evicts a workload pod (201) and its ReplicaSet recreates it on a schedulable node; 404 when absent', async () => {
    const { core } = await lab();
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await core.patchNode({ name: 'k3s-dev-1', body: { spec: { unschedulable: true } } }, merge);
    const victim = (
      await core.listPodForAllNamespaces({
        fieldSelector: 'spec.nodeName=k3s-dev-1',
        labelSelector: 'app=worker',
      })
    ).items[0]!;
    const name = victim.metadata!.name!;
    await core.createNamespacedPodEviction({
      name,
      namespace: 'default',
      body: { metadata: { name, namespace: 'default' } },
    });
    await expectApiError(core.readNamespacedPod({ name, namespace: 'default' }), 404);
    const replacement = await waitFor('a ready replacement', async () => {
      const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=worker' }))
        .items;
      return pods.length === 2 && pods.every(isReady)
        ? pods.find((p) => p.metadata?.name !== name)
        : undefined;
    });
    expect(replacement.spec?.nodeName).not.toBe('k3s-dev-1');
    const gone = await expectApiError(
      core.createNamespacedPodEviction({
        name,
        namespace: 'default',
        body: { metadata: { name, namespace: 'default' } },
      }),
      404,
    );
    expect(gone).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('refuses an eviction the PodDisruptionBudget forbids with 429', async () => {
    const { core } = await lab({ scenario: { pdbBlocks: true } });
    const pod = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items[0]!;
    const name = pod.metadata!.name!;
    const body = await expectApiError(
      core.createNamespacedPodEviction({
        name,
        namespace: 'default',
        body: { metadata: { name, namespace: 'default' } },
      }),
      429,
    );
    expect(body).toMatchObject({
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget' }] },
    });
    expect(isReady(await core.readNamespacedPod({ name, namespace: 'default' }))).toBe(true);
  });

  it('rolls Cilium out one agent at a time with maxUnavailable 1', async () => {
    const { sim, kc, core, apps } = await lab();
    const oldUids = new Set((await ciliumPods(core)).map((p) => p.metadata?.uid));
    const watch = await record<V1DaemonSet>(kc, '/apis/apps/v1/namespaces/kube-system/daemonsets', {
      fieldSelector: 'metadata.name=cilium',
    });
    const hash = sim.startCiliumRollout();
    const done = await waitFor('rollout complete', async () => {
      const ds = await apps.readNamespacedDaemonSet({ name: 'cilium', namespace: 'kube-system' });
      return ds.metadata?.generation === 2 && rolledOut(ds) ? ds : undefined;
    });
    await waitFor('the watch to see the end', () =>
      watch.events.some((e) => rolledOut(e.object) && e.object.metadata?.generation === 2),
    );
    watch.stop();
    expect(watch.events[0]?.type).toBe('ADDED');
    const statuses = watch.events.map((e) => e.object.status!);
    expect(Math.max(...statuses.map((s) => s.numberUnavailable ?? 0))).toBe(1);
    const updated = statuses
      .map((s) => s.updatedNumberScheduled ?? 0)
      .filter((n, i, all) => i === 0 || n !== all[i - 1]);
    expect(updated).toEqual([3, 0, 1, 2, 3]); // the new template makes every pod old at once, then one by one
    expect(done.status?.observedGeneration).toBe(2);
    const pods = await ciliumPods(core);
    expect(
      pods.every(
        (p) => p.metadata?.labels?.['controller-revision-hash'] === hash && !oldUids.has(p.metadata?.uid),
      ),
    ).toBe(true);
    const revisions = await apps.listNamespacedControllerRevision({
      namespace: 'kube-system',
      labelSelector: 'k8s-app=cilium',
    });
    expect(revisions.items.find((r) => r.metadata?.name === `cilium-${hash}`)?.revision).toBe(2);
  });

  it('takes two agents down at once with maxUnavailable 2', async () => {
    const { sim, kc, apps } = await lab({ scenario: { maxUnavailable: 2 } });
    const watch = await record<V1DaemonSet>(kc, '/apis/apps/v1/namespaces/kube-system/daemonsets', {
      fieldSelector: 'metadata.name=cilium',
    });
    sim.startCiliumRollout();
    await waitFor('rollout complete', async () => {
      const ds = await apps.readNamespacedDaemonSet({ name: 'cilium', namespace: 'kube-system' });
      return ds.metadata?.generation === 2 && rolledOut(ds);
    });
    await waitFor('the watch to see the end', () =>
      watch.events.some((e) => rolledOut(e.object) && e.object.metadata?.generation === 2),
    );
    watch.stop();
    expect(Math.max(...watch.events.map((e) => e.object.status?.numberUnavailable ?? 0))).toBe(2);
  });

  it('stalls a rollout at a broken agent whose config init container crash-loops', async () => {
    const { sim, kc, core } = await lab({ scenario: { brokenAgentOn: 'k3s-dev-2' } });
    const watch = await record<V1DaemonSet>(kc, '/apis/apps/v1/namespaces/kube-system/daemonsets', {
      fieldSelector: 'metadata.name=cilium',
    });
    const hash = sim.startCiliumRollout();
    const broken = await waitFor('the broken agent restarting', async () =>
      (await ciliumPods(core)).find((p) => (p.status?.initContainerStatuses?.[0]?.restartCount ?? 0) >= 3),
    );
    expect(broken.spec?.nodeName).toBe('k3s-dev-2');
    expect(broken.metadata?.labels?.['controller-revision-hash']).toBe(hash);
    const config = broken.status?.initContainerStatuses?.[0];
    expect(config?.name).toBe('config');
    expect(config?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(config?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(config?.lastState?.terminated?.message).toContain('dial tcp 10.43.0.1:443: i/o timeout');
    expect(isReady(broken)).toBe(false);

    const last = watch.events.at(-1)!.object;
    watch.stop();
    expect(last.status).toMatchObject({
      desiredNumberScheduled: 3,
      numberReady: 2,
      numberUnavailable: 1,
      updatedNumberScheduled: 2,
    });
    const third = (await ciliumPods(core)).find((p) => p.spec?.nodeName === 'k3s-dev-3');
    expect(third?.metadata?.labels?.['controller-revision-hash']).not.toBe(hash); // never touched
    const log = await core.readNamespacedPodLog({
      name: broken.metadata!.name!,
      namespace: 'kube-system',
      container: 'config',
    });
    expect(log).toContain('i/o timeout');
  });

  it('can fail a broken agent on its image pull instead: ErrImagePull, then ImagePullBackOff', async () => {
    const { sim, kc, core } = await lab({
      scenario: { brokenAgentOn: 'k3s-dev-2', brokenAgentFailure: 'image-pull' },
    });
    // ErrImagePull lasts one pull interval (60 ms here): a watch sees it where polling under load may not.
    const watch = await record<V1Pod>(kc, '/api/v1/namespaces/kube-system/pods', {
      labelSelector: 'k8s-app=cilium',
    });
    const hash = sim.startCiliumRollout();
    const isBroken = (p: V1Pod) =>
      p.spec?.nodeName === 'k3s-dev-2' && p.metadata?.labels?.['controller-revision-hash'] === hash;
    const reasonOf = (p: V1Pod) => p.status?.initContainerStatuses?.[0]?.state?.waiting?.reason;
    const broken = await waitFor('the image pull backing off', async () =>
      (await ciliumPods(core)).find((p) => isBroken(p) && reasonOf(p) === 'ImagePullBackOff'),
    );
    watch.stop();
    const reasons = watch.events
      .map((e) => e.object)
      .filter(isBroken)
      .map(reasonOf);
    expect(reasons).toContain('ErrImagePull');
    expect(reasons.indexOf('ErrImagePull')).toBeLessThan(reasons.indexOf('ImagePullBackOff'));
    const config = broken.status?.initContainerStatuses?.[0];
    expect(config).toMatchObject({ name: 'config', restartCount: 0 });
    expect(config?.state?.waiting?.message).toMatch(/^Back-off pulling image "quay\.io\/cilium\/cilium:/);
    expect(isReady(broken)).toBe(false);
  });

  it('can leave a broken agent running but never Ready (its readiness probe fails)', async () => {
    const { sim, core } = await lab({
      scenario: { brokenAgentOn: 'k3s-dev-2', brokenAgentFailure: 'never-ready' },
    });
    const hash = sim.startCiliumRollout();
    const broken = await waitFor('the agent running on k3s-dev-2', async () =>
      (await ciliumPods(core)).find(
        (p) =>
          p.spec?.nodeName === 'k3s-dev-2' &&
          p.metadata?.labels?.['controller-revision-hash'] === hash &&
          p.status?.phase === 'Running',
      ),
    );
    expect(isReady(broken)).toBe(false);
    expect(broken.status?.containerStatuses?.[0]).toMatchObject({ name: 'cilium-agent', ready: false });
    expect(broken.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
  });

  it('bumps generation but recreates no pod for an updateStrategy-only patch', async () => {
    const { core, apps } = await lab();
    const before = (await ciliumPods(core)).map((p) => [
      p.metadata?.uid,
      p.metadata?.creationTimestamp?.toISOString(),
    ]);
    const revisionsBefore = await apps.listNamespacedControllerRevision({
      namespace: 'kube-system',
      labelSelector: 'k8s-app=cilium',
    });
    const patched = await apps.patchNamespacedDaemonSet(
      {
        name: 'cilium',
        namespace: 'kube-system',
        body: { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(patched.metadata?.generation).toBe(2);
    expect(patched.spec?.updateStrategy?.rollingUpdate?.maxUnavailable).toBe(2);
    const settled = await waitFor('observedGeneration 2', async () => {
      const ds = await apps.readNamespacedDaemonSet({ name: 'cilium', namespace: 'kube-system' });
      return ds.status?.observedGeneration === 2 ? ds : undefined;
    });
    expect(rolledOut(settled)).toBe(true);
    const after = (await ciliumPods(core)).map((p) => [
      p.metadata?.uid,
      p.metadata?.creationTimestamp?.toISOString(),
    ]);
    expect(after).toEqual(before);
    const revisionsAfter = await apps.listNamespacedControllerRevision({
      namespace: 'kube-system',
      labelSelector: 'k8s-app=cilium',
    });
    expect(revisionsAfter.items.map((r) => [r.metadata?.name, r.revision])).toEqual(
      revisionsBefore.items.map((r) => [r.metadata?.name, r.revision]),
    );
    await expectApiError(
      apps.patchNamespacedDaemonSet(
        {
          name: 'cilium',
          namespace: 'kube-system',
          body: { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 0 } } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
      422,
    );
  });

  it('resumes a watch from a resourceVersion and ends watches that are cut', async () => {
    const { sim, kc, core } = await lab();
    const list = await core.listNode();
    const nodes = await record<{ metadata: { name: string } }>(kc, '/api/v1/nodes', {
      resourceVersion: list.metadata!.resourceVersion!,
    });
    sim.setNodeReady('k3s-dev-2', false);
    const event = await waitFor('the NotReady event', () => nodes.events[0]);
    expect(event).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'k3s-dev-2' } } });
    const node = await core.readNode({ name: 'k3s-dev-2' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
    });

    const ds = await record(kc, '/apis/apps/v1/namespaces/kube-system/daemonsets', {
      fieldSelector: 'metadata.name=cilium',
    });
    await waitFor('the initial ADDED', () => ds.events.length > 0);
    expect(sim.cutWatches()).toBe(2);
    await waitFor('both done callbacks', () => nodes.ended() !== undefined && ds.ended() !== undefined);
  });

  it('answers 401 to another token and nothing at all while unreachable', async () => {
    const { sim, core } = await lab();
    const stranger = new KubeConfig();
    stranger.loadFromString(sim.kubeconfig.replace(sim.token, 'not-the-token'));
    await expectApiError(stranger.makeApiClient(CoreV1Api).listNode(), 401);
    sim.setUnreachable(true);
    await expect(core.listNode()).rejects.toThrow();
    sim.setUnreachable(false);
    expect((await core.listNode()).items).toHaveLength(3);
  });

  it('lets a removed node join again through the control endpoint: NotReady, then Ready with its agent', async () => {
    // NotReady lasts nodeReadyDelayMs after the join: long enough to be read on a loaded machine.
    const { sim, core } = await lab({ scenario: { kubeProxy: true }, nodeReadyDelayMs: 1_000 });
    const dir = await mkdtemp(join(tmpdir(), 'kube-sim-test-'));
    try {
      await sim.writeKubeconfig(join(dir, 'config'));
      expect(await readFile(join(dir, 'config'), 'utf8')).toBe(sim.kubeconfig);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(sim.state().daemonSets.map((d) => d.metadata.name)).toEqual(['cilium', 'kube-proxy']);
    expect(await postControl(sim, '/_sim/nodes/k3s-dev-3/join')).toEqual({ ok: true, changed: false });
    sim.removeNode('k3s-dev-3');
    expect(await postControl(sim, '/_sim/nodes/k3s-dev-3/join')).toEqual({ ok: true, changed: true });
    const joined = await core.readNode({ name: 'k3s-dev-3' });
    expect(joined.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    await waitFor('node Ready', async () =>
      (await core.readNode({ name: 'k3s-dev-3' })).status?.conditions?.some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    );
    await waitFor('its agent Ready', async () =>
      (await ciliumPods(core)).some((p) => p.spec?.nodeName === 'k3s-dev-3' && isReady(p)),
    );
    const rollout = await postControl(sim, '/_sim/cilium/rollout');
    expect(rollout).toMatchObject({ ok: true, hash: expect.any(String) });
  });
});

describe('kube-sim: k3s installed at a new version', () => {
  const versionOf = async (core: CoreV1Api, name: string) =>
    (await core.readNode({ name })).status?.nodeInfo?.kubeletVersion;
  const readyOf = async (core: CoreV1Api, name: string) =>
    (await core.readNode({ name })).status?.conditions?.find((c) => c.type === 'Ready')?.status;

  it('restarts a registered server at that version: NotReady, then Ready reporting it; the same version changes nothing', async () => {
    const { sim, core } = await lab({ nodeReadyDelayMs: 1_000 });
    expect(await versionOf(core, 'k3s-dev-2')).toBe('v1.36.4+k3s1');
    const join = (version: string) => postControl(sim, '/_sim/nodes/k3s-dev-2/join', { version });
    expect(await join('v1.36.4+k3s1')).toEqual({ ok: true, changed: false });
    expect(await join('v1.37.0+k3s1')).toEqual({ ok: true, changed: true });
    expect(await readyOf(core, 'k3s-dev-2')).toBe('False');
    await waitFor('k3s-dev-2 Ready again', async () => (await readyOf(core, 'k3s-dev-2')) === 'True');
    expect(await versionOf(core, 'k3s-dev-2')).toBe('v1.37.0+k3s1');
    expect(await versionOf(core, 'k3s-dev-1')).toBe('v1.36.4+k3s1');
  });

  it('a k3s that does not start leaves the Node NotReady at its old version', async () => {
    const { sim, core } = await lab();
    sim.failK3sStart('k3s-dev-3');
    expect(await postControl(sim, '/_sim/nodes/k3s-dev-3/join', { version: 'v1.37.0+k3s1' })).toEqual({
      ok: true,
      changed: true,
    });
    await waitFor('k3s-dev-3 NotReady', async () => (await readyOf(core, 'k3s-dev-3')) === 'False');
    expect(await versionOf(core, 'k3s-dev-3')).toBe('v1.36.4+k3s1');
  });
});

async function fetchJson(sim: KubeSimHandle, path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await send(sim, 'GET', path, { authorization: `Bearer ${sim.token}` })) as Record<
    string,
    unknown
  >;
}

async function postControl(sim: KubeSimHandle, path: string, body?: unknown): Promise<unknown> {
  return JSON.parse(await send(sim, 'POST', path, {}, body === undefined ? undefined : JSON.stringify(body)));
}

function send(
  sim: KubeSimHandle,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}${path}`, { method, headers, ca: sim.caPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
