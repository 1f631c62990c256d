import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLazyKubeGateway } from '../../src/kube/create-lazy-kube-gateway.js';
import { type KubeSimHandle, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';

const cleanups = cleanupAfterEach();

describe('lazy Kubernetes gateway', () => {
  it('says which kubeconfig it cannot read, does not throw from watch, and works once the file exists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-lazykube-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'prod.kubeconfig');
    const kube = createLazyKubeGateway(path);

    await expect(kube.listNodes()).rejects.toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: expect.stringContaining(`cannot read kubeconfig ${path}`),
    });
    const watching = new AbortController();
    cleanups.push(async () => watching.abort());
    expect(() => kube.watch({ kind: 'nodes' }, () => undefined, watching.signal)).not.toThrow();

    const sim: KubeSimHandle = await startKubeSim({ nodes: ['k3s-prod-1'] });
    cleanups.push(() => sim.close());
    await sim.writeKubeconfig(path);
    expect((await kube.listNodes()).map((node) => node.name)).toEqual(['k3s-prod-1']);
  });

  it('reuses its TLS connection to the API server instead of opening one per request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-lazykube-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const sim = await startKubeSim();
    cleanups.push(() => sim.close());
    const path = join(dir, 'dev.kubeconfig');
    await sim.writeKubeconfig(path);
    const kube = createLazyKubeGateway(path);

    for (let i = 0; i < 20; i++) await kube.listNodes();
    await kube.readDaemonSet('kube-system', 'cilium');

    expect(sim.requests.length).toBeGreaterThanOrEqual(21);
    expect(sim.connectionCount).toBeLessThanOrEqual(2);
  });
});
