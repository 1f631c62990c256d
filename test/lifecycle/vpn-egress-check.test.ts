import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { vpnEgressCheckStep } from '../../src/lifecycle/node/vpn-egress-check-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

async function check(answer: (call: ShellCall) => ScriptedReply | undefined) {
  const { result, reporter } = await runSteps({
    world,
    steps: [vpnEgressCheckStep('1-vpn', 'k3s-dev-3')],
    shell: createScriptedShell(answer),
  });
  return { result, reporter, alerts: reporter.texts().filter((t) => t.startsWith('gate failed: ')) };
}

/** The gateway's answers: the unit's state, the tun0 exit, and the node's own exit (the home ISP now). */
const gateway =
  (tun0: ScriptedReply, home: ScriptedReply = { stdout: ['198.51.100.77'] }) =>
  (call: ShellCall): ScriptedReply =>
    call.argv[0] === 'systemctl' ? { stdout: ['active'] } : call.argv.includes('--interface') ? tun0 : home;

describe('VPN egress check on the gateway node', () => {
  it('passes with the tunnel active and a tun0 exit that is neither the home exit now nor a configured one', async () => {
    const { result, alerts, reporter } = await check(gateway({ stdout: ['203.0.113.7'] }));
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
    expect(reporter.texts()).toContain(
      '1-vpn succeeded: vpn-egress-tunnel.service active; tun0 exits from 203.0.113.7, not the home ISP (198.51.100.77, 198.51.100.23)',
    );
  });

  it('alerts when the tunnel exits from a configured home ISP address', async () => {
    const { alerts } = await check(gateway({ stdout: ['198.51.100.23'] }));
    expect(alerts).toEqual([
      "gate failed: VPN egress: tun0 on k3s-dev-3 exits from 198.51.100.23, the home ISP's address (homeExitIps): the tunnel is not carrying traffic",
    ]);
  });

  it("alerts when the tunnel exits where the node's own traffic does, an address homeExitIps does not list (the ISP moved)", async () => {
    const { result, alerts } = await check(gateway({ stdout: ['198.51.100.77'] }));
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      "gate failed: VPN egress: tun0 on k3s-dev-3 exits from 198.51.100.77, the same address as the node's own traffic (the home ISP now): the tunnel is not carrying traffic",
    ]);
  });

  it("alerts when the node's own exit cannot be read: nothing live to compare with", async () => {
    const { result, alerts } = await check(
      gateway({ stdout: ['203.0.113.7'] }, { exitCode: 28, stderr: ['curl: (28) Operation timed out'] }),
    );
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      'gate failed: VPN egress: no exit IP without --interface (the home ISP now) on k3s-dev-3: curl: (28) Operation timed out',
    ]);
  });

  it('alerts when the unit is inactive, and when the node cannot be reached', async () => {
    expect((await check(() => ({ exitCode: 3, stdout: ['inactive'] }))).alerts).toEqual([
      'gate failed: VPN egress: vpn-egress-tunnel.service on k3s-dev-3 is inactive',
    ]);
    const unreachable = await check(() => ({
      error: new ClusterBotError('SSH_UNREACHABLE', 'k3s-dev-3 (192.168.1.43:22) unreachable'),
    }));
    expect(unreachable.result).toMatchObject({ outcome: 'failed' });
    expect(unreachable.alerts).toEqual([
      'gate failed: VPN egress: cannot check k3s-dev-3 over SSH: k3s-dev-3 (192.168.1.43:22) unreachable',
    ]);
  });
});
