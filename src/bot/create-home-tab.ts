import { createHash } from 'node:crypto';
import type { WorldConfig } from '../config/world-config.js';
import { handleApprovalClick } from '../conversation/handle-approval-click.js';
import { handleClusterCommand } from '../conversation/handle-cluster-command.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { Logger } from '../log/create-logger.js';
import type { ClusterService, HomeAnswer } from '../service/index.js';
import type { JobPageUrl } from '../wording/job-page-url.js';
import type { HomePublisher } from './create-home-publisher.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { homeChannel, verifyChannel } from './home-channels.js';
import { MRKDWN } from './mrkdwn.js';
import { layOutDecision } from './render-decision.js';
import { type HomeView, renderHome } from './render-home.js';
import type { SlackPoster } from './slack-poster.js';

export interface HomeTabDeps {
  readonly world: WorldConfig;
  readonly service: ClusterService;
  readonly publisher: HomePublisher;
  /** Where an approval decided from the Home is shown (its thread), and the requests' links. */
  readonly poster: SlackPoster;
  readonly jobPageUrl: JobPageUrl;
  readonly clock: Pick<Clock, 'sleep'>;
  readonly logger: Logger;
}

/** Never a view's hash: what a failed publish records, so the next round publishes again. */
const NOT_SHOWN = 'not shown';

/** How long after opening the Home a person's view keeps being refreshed. */
export const HOME_WATCH_MS = 30 * 60_000;

/**
 * The App Home: published when a person opens it, after their "Verify now" or approval click, and again
 * whenever what it shows changes while they watch (opened within HOME_WATCH_MS). Changes are found
 * by polling the service and comparing a hash of the rendered view with the one last published
 * (kept by the service in Redis): it needs no hook in the worker, works the same whichever process
 * changed the state, and publishes nothing when nothing changed.
 */
// Long only as a whole: four short methods sharing the service, the renderer and the publish-or-give-back rule.
export function createHomeTab(deps: HomeTabDeps) {
  const { world, service, publisher } = deps;
  const read = (userId: string) => service.home({ userId, channelId: homeChannel(world) });
  const viewOf = (data: HomeAnswer, notice?: string) =>
    renderHome(data, {
      jobPageUrl: deps.jobPageUrl,
      threadLink: deps.poster.permalink,
      verifyChannel: (cluster) => verifyChannel(world, cluster),
      notice,
    });

  /** Publishes a view whose hash was just recorded; on failure the record is given back, so it is tried again. */
  const publish = async (userId: string, view: HomeView) => {
    try {
      await publisher.publish(userId, view);
    } catch (error) {
      await service.markHomeShown(userId, NOT_SHOWN);
      throw error;
    }
  };

  /** Publishes the Home, recording the hash of what it shows without the notice (a notice alone is no change). */
  const show = async (userId: string, data: HomeAnswer, notice?: string) => {
    await service.markHomeShown(userId, hashOf(viewOf(data)));
    await publish(userId, viewOf(data, notice));
  };

  return {
    async opened(userId: string): Promise<void> {
      await service.watchHome(userId);
      await show(userId, await read(userId));
    },

    /** "Verify now": `verify <cluster>` as that person, through the same command handling as typed. */
    async verifyClicked(userId: string, cluster: string): Promise<void> {
      // The button's value names a cluster; a forged one (`dev --queue`, a stranger's name) runs nothing.
      const known = Object.hasOwn(world.clusters, cluster);
      const { text } = known
        ? await handleClusterCommand(
            { text: `verify ${cluster}`, userId, channelId: verifyChannel(world, cluster) },
            { service, world, marks: MRKDWN },
          )
        : { text: '⛔ That button names no cluster of this bot; nothing was run.' };
      await service.watchHome(userId);
      const notice = `*Verify now${known ? ` (${escapeMrkdwn(cluster)})` : ''}:* ${text}`;
      await show(userId, await read(userId), notice);
    },

    /**
     * Approve or Reject on the Home: the same decision as the thread's buttons (rights, rules, one
     * compare-and-set, the audit, the thread updated), answered on the clicker's Home.
     */
    async approvalClicked(userId: string, decision: 'approve' | 'reject', value: string): Promise<void> {
      const answer = await handleApprovalClick(
        { userId, decision, value, channel: homeChannel(world), onHome: true },
        { service, poster: deps.poster, marks: MRKDWN, layOutDecision },
      );
      await service.watchHome(userId);
      const notice = `*${decision === 'approve' ? 'Approve' : 'Reject'}:* ${answer ?? 'done; the job’s thread shows it.'}`;
      await show(userId, await read(userId), notice);
    },

    /**
     * One round: re-render each watcher's Home, publish only those that changed. A failed publish
     * gives its claim back, so the next round tries again; the others go on. Returns how many went out.
     */
    async refresh(): Promise<number> {
      let published = 0;
      const watchers = await service.homeWatchers(HOME_WATCH_MS);
      const homes = await service.homes(
        watchers.map((userId) => ({ userId, channelId: homeChannel(world) })),
      );
      for (const [index, userId] of watchers.entries()) {
        const view = viewOf(homes[index]!);
        if (!(await service.markHomeShown(userId, hashOf(view)))) continue;
        try {
          await publish(userId, view);
          published += 1;
        } catch (error) {
          deps.logger.warn({ err: error, userId }, 'App Home publish failed');
        }
      }
      return published;
    },

    /** Refreshes every `intervalMs` until the signal aborts; a failed round is logged, the next one runs. */
    async run(intervalMs: number, signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        try {
          await this.refresh();
        } catch (error) {
          deps.logger.warn({ err: error }, 'App Home refresh failed');
        }
        await deps.clock.sleep(intervalMs, signal).catch(() => undefined);
      }
    },
  };
}

export type HomeTab = ReturnType<typeof createHomeTab>;

function hashOf(view: HomeView): string {
  return createHash('sha256').update(JSON.stringify(view.blocks)).digest('base64url');
}
