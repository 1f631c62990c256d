import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
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
  const prod = { ...example.clusters.prod!, kubeconfigPath: configured };
  const world: WorldConfig = { ...example, clusters: { dev, prod } };
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

    await expect(kubes.adopt('dev', stale, [])).rejects.toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: expect.stringMatching(/^that kubeconfig does not reach dev: .*401/),
    });
    expect(await readdir(join(dataDir, 'kubeconfigs'))).toEqual([]);
    // dev's kubeconfig reaches a cluster, but not prod: its nodes are not prod's (its server is
    // named for prod here, so the nodes decide).
    await expect(kubes.adopt('prod', sim.kubeconfig, [])).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message:
        "that kubeconfig reaches a cluster with nodes that are not prod's (k3s-dev-1, k3s-dev-2, k3s-dev-3); kept nothing",
    });
    expect(await readdir(join(dataDir, 'kubeconfigs'))).toEqual([]);

    expect(await kubes.adopt('dev', sim.kubeconfig, [])).toEqual({ keptAt: kept, nodes: 3 });
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
    // The same gateway object, as steps hold it, now goes through the adopted kubeconfig.
    expect((await kubes.kubeFor('dev').listNodes()).map((node) => node.name)).toEqual([
      'k3s-dev-1',
      'k3s-dev-2',
      'k3s-dev-3',
    ]);
  });

  it('another process sharing DATA_DIR never uses a kubeconfig it did not adopt itself', async () => {
    const { sim, world, dataDir } = await setUp();
    const otherWorker = createClusterKubes(world, dataDir);
    const gateway = otherWorker.kubeFor('dev');
    await expect(gateway.listNodes()).rejects.toMatchObject({ message: expect.stringContaining('401') });

    await createClusterKubes(world, dataDir).adopt('dev', sim.kubeconfig, []);
    // The file another pod (or this one before a restart) left is no proof: still the configured one.
    await expect(gateway.listNodes()).rejects.toMatchObject({ message: expect.stringContaining('401') });
  });

  it("adopts only a server the operators named for the cluster: the configured kubeconfig's, or k3s_api_host / kube_vip_address on 6443", async () => {
    const { sim, world, dataDir } = await setUp();
    const elsewhere = {
      ...world,
      clusters: { dev: { ...world.clusters.dev!, kubeconfigPath: join(dataDir, 'none') } },
    };
    const kubes = createClusterKubes(elsewhere, dataDir);
    const requestsBefore = sim.requests.length;
    await expect(kubes.adopt('dev', sim.kubeconfig, ['127.0.1.11', '127.0.1.49'])).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: `that kubeconfig's server ${sim.url} is not one named for dev (https://127.0.1.11:6443, https://127.0.1.49:6443: the configured kubeconfig's server, k3s_api_host or kube_vip_address on 6443); kept nothing`,
    });
    // Refused before anything was sent: no request reached the server it names.
    expect(sim.requests.length).toBe(requestsBefore);
    // Named as k3s_api_host on 6443 is accepted (the port is the sim's own, so it is not reached here).
    const onVip = sim.kubeconfig.replace(sim.url, 'https://127.0.1.49:6443');
    await expect(kubes.adopt('dev', onVip, ['127.0.1.11', '127.0.1.49'])).rejects.toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: expect.stringMatching(/^that kubeconfig does not reach dev: /),
    });
  });

  it('an adopted file that is no longer 0600, or whose directory is no longer 0700, is refused, not used', async () => {
    const { sim, world, dataDir, kept } = await setUp();
    const kubes = createClusterKubes(world, dataDir);
    await kubes.adopt('dev', sim.kubeconfig, []);
    await chmod(kept, 0o644);
    await expect(kubes.kubeFor('dev').listNodes()).rejects.toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: `cannot read kubeconfig ${kept}: refused, not used: mode 0644, not 0600`,
    });

    const again = createClusterKubes(world, dataDir);
    await again.adopt('dev', sim.kubeconfig, []);
    await chmod(join(dataDir, 'kubeconfigs'), 0o777);
    await expect(again.kubeFor('dev').listNodes()).rejects.toMatchObject({
      message: expect.stringMatching(/refused, not used: its directory is mode 0777 of uid \d+, not 0700/),
    });
    // Adopting again puts the directory back to 0700.
    await again.adopt('dev', sim.kubeconfig, []);
    expect((await stat(join(dataDir, 'kubeconfigs'))).mode & 0o777).toBe(0o700);
    expect(await again.kubeFor('dev').listNodes()).toHaveLength(3);
  });
});
