import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notTheApiHost } from '../../src/lifecycle/preconditions/not-the-api-host.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { labStepContext } from '../support/lab-step-context.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

// The bot's dev kubeconfig reaches the API through k3s-dev-2 itself (its config address), not the
// VIP: dev's kube-sim listens there, so the kubeconfig the lab writes names https://127.0.0.12:<port>.
const THROUGH = 'k3s-dev-2';
const THROUGH_ADDRESS = '127.0.0.12';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab({ sim: { host: THROUGH_ADDRESS } });
});
afterAll(async () => {
  await lab?.stop();
});

const dev = () => lab.world.clusters.dev!;
const node = (name: string) => dev().nodes.find((entry) => entry.name === name)!;

describe("reprovision never rebuilds the node the bot's kubeconfig reaches the API through", () => {
  it(
    'refuses the node whose address is the kubeconfig server, naming the kubeconfig and the VIP procedure; nothing is cordoned',
    async () => {
      expect(node(THROUGH).address).toBe(THROUGH_ADDRESS);
      expect(lab.sim.url).toMatch(/^https:\/\/127\.0\.0\.12:\d+$/);
      const job = lab.startJob(`reprovision ${THROUGH}`);
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(job.reporter.planFailure()?.details?.failures).toEqual([
        `${THROUGH} (${THROUGH_ADDRESS}) is the server of the bot's kubeconfig for dev (${lab.sim.url}): the API and every ` +
          "Cilium agent's k8sServiceHost go through it, so rebuilding it cuts them off (delete Node would fail against the API it stopped). " +
          "Point k3s_api_host (and the bot's kubeconfig server) at the control-plane VIP (kube_vip_address) first, " +
          `roll Cilium out with it, then reprovision ${THROUGH}`,
      ]);
      expect(job.approvals.requests).toEqual([]);
      expect(job.texts()).toContain('2-cordon-drain skipped: not run');
      expect(lab.sim.state().nodes.every((entry) => entry.spec?.unschedulable !== true)).toBe(true);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'another node of the same cluster is not the kubeconfig server: the check passes for it',
    async () => {
      const ctx = labStepContext(lab, 'dev');
      expect(await notTheApiHost(node('k3s-dev-3')).check(ctx, undefined as never)).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
