import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeGateway } from '../../src/kube/create-kube-gateway.js';
import { upPlan } from '../../src/lifecycle/plans/up-plan.js';
import { type KubeSimHandle, startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { type SimRelay, startSimRelay } from '../lab/start-sim-relay.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { labStepContext } from '../support/lab-step-context.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const ROUTE = 'kube-sim-url.dev.kubeconfig';
const FLUX_SYSTEM = 'flux-system';

let lab: LifecycleLab;
// Another cluster's API: where the ops host's `flux` lands while its KUBECONFIG names that cluster.
let stray: KubeSimHandle;
let strayRelay: SimRelay;
let devRoute: string;
beforeAll(async () => {
  lab = await startLifecycleLab();
  stray = await startKubeSim({ nodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'] });
  strayRelay = await startSimRelay(stray);
  devRoute = (await lab.ops.readNodeState(ROUTE))!;
});
afterAll(async () => {
  await strayRelay?.close();
  await stray?.close();
  await lab?.stop();
});

const bootstrap = () =>
  upPlan(lab.world, lab.world.clusters.dev!).find((step) => step.title === 'flux-bootstrap.yml')!;
const straySync = () => {
  const config = new KubeConfig();
  config.loadFromString(stray.kubeconfig);
  return createKubeGateway(config).readKustomization(FLUX_SYSTEM, FLUX_SYSTEM);
};

async function bootstrapLandingOnStray(): Promise<unknown> {
  await lab.ops.setNodeState(ROUTE, strayRelay.url);
  try {
    return await bootstrap()
      .run(labStepContext(lab, 'dev'))
      .catch((error: unknown) => error);
  } finally {
    await lab.ops.setNodeState(ROUTE, devRoute);
  }
}

describe("after flux-bootstrap.yml, the cluster's live Flux applies its own path (real ansible, flux stand-in, kube-sim)", () => {
  it(
    "a bootstrap that reached another cluster's API leaves none on dev: the step fails saying so",
    async () => {
      const error = await bootstrapLandingOnStray();
      expect(error).toMatchObject({
        code: 'GATE_FAILED',
        message:
          'dev has no Kustomization flux-system/flux-system after flux-bootstrap.yml (expected one applying ./clusters/dev): ' +
          "the bootstrap reached another cluster's API (the ops host's KUBECONFIG), not dev's",
      });
      expect(await straySync()).toMatchObject({ path: './clusters/dev' });
      expect(await lab.devKube.readKustomization(FLUX_SYSTEM, FLUX_SYSTEM)).toBeUndefined();
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    "dev's flux-system left applying prod's path (a prod bootstrap into dev): the step fails naming both paths",
    async () => {
      lab.sim.serveGitRevision(await lab.repo.head(), 'clusters/prod');
      const error = await bootstrapLandingOnStray();
      expect(error).toMatchObject({
        code: 'GATE_FAILED',
        message:
          "dev's Kustomization flux-system/flux-system applies clusters/prod, not ./clusters/dev: dev gets another cluster's " +
          'manifests and K3S_API_HOST. The bootstrap went to another cluster or with another --path; ' +
          'bootstrap dev again with --path=clusters/dev from its own KUBECONFIG',
      });
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    "the bootstrap through dev's own KUBECONFIG re-points Flux at ./clusters/dev: the step passes and says so",
    async () => {
      const result = await bootstrap().run(labStepContext(lab, 'dev'));
      expect(result.status).toBe('succeeded');
      expect(result.summary).toMatch(
        /; Flux applies \.\/clusters\/dev on dev \(Kustomization flux-system\/flux-system\)$/,
      );
      expect(await lab.devKube.readKustomization(FLUX_SYSTEM, FLUX_SYSTEM)).toMatchObject({
        path: './clusters/dev',
      });
      expect(await lab.devKube.readGitRepository(FLUX_SYSTEM, FLUX_SYSTEM)).toMatchObject({
        revision: `main@sha1:${await lab.repo.head()}`,
      });
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
