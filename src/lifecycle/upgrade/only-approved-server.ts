import { isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { describeServerVersions } from './server-versions.js';
import { approvedUpgrade } from './upgrade-facts.js';

/**
 * One step of one server's upgrade: skipped when the approval did not list the server (it already
 * ran the target), and, when it fails, the upgrade stops there with every server's version and state
 * in the thread: the servers after it are left untouched.
 */
export function onlyApprovedServer(server: string, step: Step): Step {
  return {
    ...step,
    async run(ctx) {
      const upgrade = approvedUpgrade(ctx);
      if (!upgrade.servers.some((entry) => entry.server === server)) {
        return { status: 'skipped', summary: `${server} already runs ${upgrade.target}` };
      }
      try {
        return await step.run(ctx);
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
        const states = await describeServerVersions(ctx, upgrade);
        const after = upgrade.servers.slice(
          upgrade.servers.findIndex((entry) => entry.server === server) + 1,
        );
        await ctx.note(
          `The upgrade stopped at ${step.title} of ${server}. Every server now:\n${states.join('\n')}\n` +
            (after.length > 0 ? `Untouched: ${after.map((entry) => entry.server).join(', ')}. ` : '') +
            `By hand from here: find out why ${step.title} failed on ${server} (k3s itself: \`journalctl -u k3s\` there); once it is Ready, \`kubectl uncordon ${server}\` if it is cordoned, then run the upgrade again: servers already at ${upgrade.target} are skipped`,
        );
        throw error;
      }
    },
  };
}
