import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { vpnEgressCheckStep } from '../../src/lifecycle/steps/vpn-egress-check-step.js';
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
  return { result, alerts: reporter.texts().filter((t) => t.startsWith('gate failed: ')) };
}

describe('VPN egress check on the gateway node', () => {
  it('passes with the tunnel active and a non-home exit IP', async () => {
    const { result, alerts } = await check((call) =>
      call.argv[0] === 'systemctl' ? { stdout: ['active'] } : { stdout: ['203.0.113.7'] },
    );
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
  });

  it('alerts when the tunnel exits from the home ISP address', async () => {
    const { alerts } = await check((call) =>
      call.argv[0] === 'systemctl' ? { stdout: ['active'] } : { stdout: ['198.51.100.23'] },
    );
    expect(alerts).toEqual([
      "gate failed: VPN egress: tun0 on k3s-dev-3 exits from 198.51.100.23, the home ISP's address: the tunnel is not carrying traffic",
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
