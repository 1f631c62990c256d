import { isIP } from 'node:net';
import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { findNode, nodeTarget } from '../targets.js';

export const VPN_UNIT = 'vpn-egress-tunnel.service';
const EXIT_IP_LOOKUP = ['-sS', '--max-time', '15', 'https://ipinfo.io/ip'];
const TUN0_EXIT_ARGV = ['curl', '--interface', 'tun0', ...EXIT_IP_LOOKUP];
// The node's own traffic leaves through the home ISP (the tunnel is split): its exit is the home
// address as of now, which a configured list misses once the ISP hands out another one.
const HOME_EXIT_ARGV = ['curl', ...EXIT_IP_LOOKUP];

/**
 * The gateway's egress is only right when the tunnel unit is active AND traffic through tun0 leaves
 * from an address that is not the home ISP's (neither the node's own exit now nor `homeExitIps`);
 * otherwise VPN-class pods are dropped by the kill switch, or leave from home.
 */
export function vpnEgressCheckStep(id: string, node: string): Step {
  return {
    id,
    title: 'VPN egress check',
    target: node,
    commandLine: `systemctl is-active ${VPN_UNIT}; ${TUN0_EXIT_ARGV.join(' ')}; ${HOME_EXIT_ARGV.join(' ')}`,
    async run(ctx) {
      const target = nodeTarget(ctx, findNode(ctx.cluster, node));
      // A gateway that cannot be asked is a failed gate too: the alert says so.
      const ask = (argv: readonly string[]) =>
        captureRemote(ctx, target, argv).catch(async (error: unknown) => {
          if (isClusterBotError(error, 'CANCELLED')) throw error;
          return fail(ctx, `cannot check ${node} over SSH: ${(error as Error).message}`);
        });
      const exitIp = async (argv: readonly string[], what: string) => {
        const exit = await ask(argv);
        const ip = exit.stdout.trim();
        if (exit.exitCode === 0 && isIP(ip) !== 0) return ip;
        return fail(
          ctx,
          `no exit IP ${what} on ${node}: ${exit.stderr.trim() || ip || `exit ${exit.exitCode}`}`,
        );
      };
      const unit = await ask(['systemctl', 'is-active', VPN_UNIT]);
      const state = unit.stdout.trim() || unit.stderr.trim() || `exit ${unit.exitCode}`;
      if (unit.exitCode !== 0 || state !== 'active') {
        return fail(ctx, `${VPN_UNIT} on ${node} is ${state}`);
      }
      const ip = await exitIp(TUN0_EXIT_ARGV, 'through tun0');
      // Without it the check could not tell a leak from the tunnel: never passed silently.
      const homeNow = await exitIp(HOME_EXIT_ARGV, 'without --interface (the home ISP now)');
      if (ip === homeNow) {
        return fail(
          ctx,
          `tun0 on ${node} exits from ${ip}, the same address as the node's own traffic (the home ISP now): the tunnel is not carrying traffic`,
        );
      }
      if (ctx.cluster.homeExitIps.includes(ip)) {
        return fail(
          ctx,
          `tun0 on ${node} exits from ${ip}, the home ISP's address (homeExitIps): the tunnel is not carrying traffic`,
        );
      }
      const home = [...new Set([homeNow, ...ctx.cluster.homeExitIps])].join(', ');
      return {
        status: 'succeeded',
        summary: `${VPN_UNIT} active; tun0 exits from ${ip}, not the home ISP (${home})`,
      };
    },
  };
}

async function fail(ctx: StepContext, observed: string): Promise<never> {
  await ctx.gateFailed('VPN egress', observed);
  throw new ClusterBotError('GATE_FAILED', observed);
}
