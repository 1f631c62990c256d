import { isIP } from 'node:net';
import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { findNode, hostKeyFactKey, nodeTarget } from '../targets.js';
import { captureRemote } from './capture-remote.js';

export const VPN_UNIT = 'vpn-egress-tunnel.service';
const EXIT_IP_ARGV = ['curl', '--interface', 'tun0', '-sS', '--max-time', '15', 'https://ipinfo.io/ip'];

/**
 * The gateway's egress is only right when the tunnel unit is active AND traffic through tun0 leaves
 * from an address that is not the home ISP's; otherwise VPN-class pods are dropped by the kill switch.
 */
export function vpnEgressCheckStep(id: string, node: string): Step {
  return {
    id,
    title: 'VPN egress check',
    target: node,
    commandLine: `systemctl is-active ${VPN_UNIT}; ${EXIT_IP_ARGV.join(' ')}`,
    async run(ctx) {
      const target = nodeTarget(
        ctx.cluster,
        findNode(ctx.cluster, node),
        ctx.facts.get<string>(hostKeyFactKey(node)),
      );
      // A gateway that cannot be asked is a failed gate too: the alert says so.
      const ask = (argv: readonly string[]) =>
        captureRemote(ctx, target, argv).catch(async (error: unknown) => {
          if (isClusterBotError(error, 'CANCELLED')) throw error;
          return fail(ctx, `cannot check ${node} over SSH: ${(error as Error).message}`);
        });
      const unit = await ask(['systemctl', 'is-active', VPN_UNIT]);
      const state = unit.stdout.trim() || unit.stderr.trim() || `exit ${unit.exitCode}`;
      if (unit.exitCode !== 0 || state !== 'active') {
        return fail(ctx, `${VPN_UNIT} on ${node} is ${state}`);
      }
      const exit = await ask(EXIT_IP_ARGV);
      const ip = exit.stdout.trim();
      if (exit.exitCode !== 0 || isIP(ip) === 0) {
        return fail(
          ctx,
          `no exit IP through tun0 on ${node}: ${exit.stderr.trim() || ip || `exit ${exit.exitCode}`}`,
        );
      }
      if (ctx.cluster.homeExitIps.includes(ip)) {
        return fail(
          ctx,
          `tun0 on ${node} exits from ${ip}, the home ISP's address: the tunnel is not carrying traffic`,
        );
      }
      return { status: 'succeeded', summary: `${VPN_UNIT} active; tun0 exits from ${ip} (not the home ISP)` };
    },
  };
}

async function fail(ctx: StepContext, observed: string): Promise<never> {
  await ctx.gateFailed('VPN egress', observed);
  throw new ClusterBotError('GATE_FAILED', observed);
}
