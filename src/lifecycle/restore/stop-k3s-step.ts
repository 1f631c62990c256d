import type { Step } from '../plan/step.js';
import { serversOf } from './restore-facts.js';
import { k3sActive, runOnServer } from './server-commands.js';
import { stopWithStates } from './stop-with-states.js';

/**
 * k3s stopped on every server, as k3s documents for an HA restore: one server left running would
 * keep the old cluster alive beside the restored one. A server already stopped (a resumed job) is
 * left as it is.
 */
export function stopK3sStep(id: string, cluster: string): Step {
  return stopWithStates(
    {
      id,
      title: 'stop k3s on every server',
      target: `${cluster}: every server (the API is down from here until the restored server is back)`,
      commandLine: 'systemctl stop k3s (as root, on each server)',
      async run(ctx) {
        const stopped: string[] = [];
        for (const server of serversOf(ctx)) {
          if (!(await k3sActive(ctx, server))) continue;
          await runOnServer(ctx, server, ['systemctl', 'stop', 'k3s']);
          stopped.push(server.name);
          await ctx.progress(`k3s stopped on ${server.name}`);
        }
        const all = serversOf(ctx).map((server) => server.name);
        return {
          status: 'succeeded',
          summary: `k3s stopped on ${all.join(', ')}${stopped.length < all.length ? ` (${all.length - stopped.length} already stopped)` : ''}`,
        };
      },
    },
    () =>
      'nothing was restored yet: `systemctl start k3s` on each stopped server brings the cluster back as it was',
  );
}
