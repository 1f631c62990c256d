import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import { startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { loadExampleWorld } from '../support/example-world.js';

const cleanups = cleanupAfterEach();

let example: WorldConfig;
beforeAll(async () => {
  example = await loadExampleWorld();
});

async function setUp() {
  const dir = await mkdtemp(join(tmpdir(), 'cb-clusterkubes-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const sim = await startKubeSim();
  cleanups.push(() => sim.close());
  const configured = join(dir, 'mounted-secret.kubeconfig');
  const stale = sim.kubeconfig.replace(sim.token, 'token-of-the-previous-cluster');
  await writeFile(configured, stale);
  const dev = { ...example.clusters.dev!, kubeconfigPath: configured };
  const world: WorldConfig = { ...example, clusters: { dev } };
  const dataDir = join(dir, 'data');
  return { sim, world, dataDir, stale, kept: join(dataDir, 'kubeconfigs', 'dev.kubeconfig') };
}

describe("a cluster's gateways and the kubeconfig adopted for it", () => {
  it('adopts only a kubeconfig that reaches the cluster; keeps nothing for one that does not', async () => {
    const { sim, world, dataDir, stale, kept } = await setUp();
    const kubes = createClusterKubes(world, dataDir);
    await expect(kubes.kubeFor('dev').listNodes()).rejects.toMatchObject({
      message: expect.stringContaining('401'),
    });

    await expect(kubes.adopt('dev', stale)).rejects.toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: expect.stringMatching(/^that kubeconfig does not reach dev: .*401/),
    });
    expect(await readdir(join(dataDir, 'kubeconfigs'))).toEqual([]);
    // dev's kubeconfig reaches a cluster, but not prod: its nodes are not prod's.
    await expect(kubes.adopt('prod', sim.kubeconfig)).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message:
        "that kubeconfig reaches a cluster with nodes that are not prod's (k3s-dev-1, k3s-dev-2, k3s-dev-3); kept nothing",
    });
    expect(await readdir(join(dataDir, 'kubeconfigs'))).toEqual([]);

    expect(await kubes.adopt('dev', sim.kubeconfig)).toEqual({ keptAt: kept, nodes: 3 });
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
    // The same gateway object, as steps hold it, now goes through the adopted kubeconfig.
    expect((await kubes.kubeFor('dev').listNodes()).map((node) => node.name)).toEqual([
      'k3s-dev-1',
      'k3s-dev-2',
      'k3s-dev-3',
    ]);
  });

  it('another process sharing DATA_DIR prefers the adopted kubeconfig too, even with its gateway already made', async () => {
    const { sim, world, dataDir } = await setUp();
    const otherWorker = createClusterKubes(world, dataDir);
    const gateway = otherWorker.kubeFor('dev');
    await expect(gateway.listNodes()).rejects.toMatchObject({ message: expect.stringContaining('401') });

    await createClusterKubes(world, dataDir).adopt('dev', sim.kubeconfig);
    expect(await gateway.listNodes()).toHaveLength(3);
  });
});
