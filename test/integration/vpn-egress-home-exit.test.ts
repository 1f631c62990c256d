import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vpnEgressCheckStep } from '../../src/lifecycle/node/vpn-egress-check-step.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { DEV_ADDRESSES, HOME_EXIT_IP, LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LabWorld, startLabWorld } from '../support/lab-world.js';
import { runSteps } from '../support/run-steps.js';

let lab: LabWorld;
beforeAll(async () => {
  lab = await startLabWorld();
});
afterAll(async () => {
  await lab?.stop();
});

const GATEWAY = DEV_ADDRESSES['k3s-dev-3'];

/** The VPN check of the runbook on the lab's gateway node, over real SSH (curl answers per interface). */
async function checkGateway() {
  const { result, reporter } = await runSteps({
    world: lab.world,
    steps: [vpnEgressCheckStep('1-vpn-check', 'k3s-dev-3')],
    shell: createSshRemoteShell({ connectTimeoutMs: 3_000 }),
  });
  return { result, texts: reporter.texts() };
}

describe('the VPN check reads the home ISP live on the gateway', () => {
  it(
    "passes a tunnel exit that is neither the node's own exit nor a configured home address",
    async () => {
      const { result, texts } = await checkGateway();
      expect(result).toMatchObject({ outcome: 'succeeded' });
      expect(texts).toContain(
        `1-vpn-check succeeded: vpn-egress-tunnel.service active; tun0 exits from 203.0.113.7, not the home ISP (${HOME_EXIT_IP})`,
      );
      expect(await lab.nodes.commands()).toEqual(
        expect.arrayContaining([
          'curl --interface tun0 -sS --max-time 15 https://ipinfo.io/ip',
          'curl -sS --max-time 15 https://ipinfo.io/ip',
        ]),
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    "fails when tun0 leaves from the home ISP's new address, one homeExitIps does not list",
    async () => {
      // The ISP handed out another address, and the "tunnel" routes through it: a leak the list misses.
      await lab.nodes.setNodeState('default-exit-ip', '198.51.100.44', GATEWAY);
      await lab.nodes.setNodeState('tun0-exit-ip', '198.51.100.44', GATEWAY);
      try {
        const { result, texts } = await checkGateway();
        expect(result).toMatchObject({ outcome: 'failed' });
        expect(texts).toContain(
          "gate failed: VPN egress: tun0 on k3s-dev-3 exits from 198.51.100.44, the same address as the node's own traffic (the home ISP now): the tunnel is not carrying traffic",
        );
      } finally {
        await lab.nodes.setNodeState('default-exit-ip', null, GATEWAY);
        await lab.nodes.setNodeState('tun0-exit-ip', null, GATEWAY);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
