import { describe, expect, it } from 'vitest';
import type { HomePublisher } from '../../src/bot/create-home-publisher.js';
import { createHomeTab } from '../../src/bot/create-home-tab.js';
import type { HomeView } from '../../src/bot/render-home.js';
import type { ClusterService, HomeCluster } from '../../src/service/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { homeCluster } from '../support/home-cluster.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createRecordingPoster } from '../support/recording-poster.js';

/** The service's home state as the test sets it, and markHomeShown as Redis would answer. */
async function homeTabLab(watchers: string[] = ['U0BOB'], failFor: ReadonlySet<string> = new Set()) {
  let clusters = [homeCluster('dev'), homeCluster('prod')];
  const shown = new Map<string, string>();
  const fake = createFakeClusterService({
    home: async () => ({ kind: 'home', clusters }),
    homeWatchers: async () => watchers,
    markHomeShown: async (user, hash) => {
      if (shown.get(user) === hash) return false;
      shown.set(user, hash);
      return true;
    },
  });
  const published: { user: string; view: HomeView }[] = [];
  const publisher: HomePublisher = {
    async publish(user, view) {
      if (failFor.has(user)) throw new Error('user_not_found');
      published.push({ user, view });
    },
  };
  const tab = createHomeTab({
    world: await loadExampleWorld(),
    service: fake.service,
    publisher,
    poster: createRecordingPoster().poster,
    jobPageUrl: () => undefined,
    clock: createInstantClock(),
    logger: captureLogger((text) => text).logger,
  });
  const setDev = (change: Partial<HomeCluster>) => {
    clusters = [{ ...homeCluster('dev'), ...change }, homeCluster('prod')];
  };
  return { tab, published, setDev, ...fake };
}

const textOf = (view: HomeView) => JSON.stringify(view.blocks);

describe('the App Home tab', () => {
  it('opening it records the watcher and publishes at once; a refresh with nothing changed publishes nothing', async () => {
    const { tab, published, asked } = await homeTabLab();
    await tab.opened('U0BOB');
    expect(asked().map((call) => call.op)).toEqual(['watchHome', 'home', 'markHomeShown']);
    expect(published.map((p) => p.user)).toEqual(['U0BOB']);
    expect(await tab.refresh()).toBe(0);
    expect(await tab.refresh()).toBe(0);
    expect(published).toHaveLength(1);
  });

  it('a state change is published once to each watcher, then nothing until the next change', async () => {
    const { tab, published, setDev } = await homeTabLab(['U0BOB', 'U0ALICE']);
    await tab.refresh();
    published.length = 0;
    setDev({ holder: { id: 'job-7' } });
    expect(await tab.refresh()).toBe(2);
    expect(published.map((p) => p.user)).toEqual(['U0BOB', 'U0ALICE']);
    expect(textOf(published[0]!.view)).toContain('job job-7');
    expect(await tab.refresh()).toBe(0);
  });

  it('a failed publish is tried again next round, and does not stop the others', async () => {
    const failFor = new Set(['U0GONE']);
    const { tab, published } = await homeTabLab(['U0GONE', 'U0BOB'], failFor);
    expect(await tab.refresh()).toBe(1);
    expect(published.map((p) => p.user)).toEqual(['U0BOB']);
    failFor.clear();
    expect(await tab.refresh()).toBe(1);
    expect(published.map((p) => p.user)).toEqual(['U0BOB', 'U0GONE']);
    expect(await tab.refresh()).toBe(0);
  });

  it('"Verify now" submits verify of that cluster as the clicker, from the command channel, and says so on top', async () => {
    const { tab, published, asked } = await homeTabLab();
    await tab.verifyClicked('U0BOB', 'dev');
    const submit = asked().find((call) => call.op === 'submit')!;
    expect(submit.args).toEqual([
      { userId: 'U0BOB', channelId: 'C0OPS' },
      { verb: 'verify', cluster: 'dev' },
      false,
      // Counted against the clicker's limit in the job's own write.
      { userId: 'U0BOB' },
    ]);
    expect(textOf(published[0]!.view)).toContain('*Verify now (dev):* Queued as job #1');
    // The notice is not a state change: the next refresh leaves it in place.
    expect(await tab.refresh()).toBe(0);
  });

  it('a forged "Verify now" value (unknown cluster, extra words) runs nothing', async () => {
    const { tab, published, asked } = await homeTabLab();
    await tab.verifyClicked('U0BOB', 'dev --queue');
    await tab.verifyClicked('U0BOB', 'staging');
    expect(asked().filter((call) => call.op === 'submit')).toEqual([]);
    expect(textOf(published[1]!.view)).toContain('names no cluster of this bot; nothing was run');
  });

  it('a refusal from the service (not an operator) is what the clicker sees', async () => {
    const published: { user: string; view: HomeView }[] = [];
    const refusing = createFakeClusterService({
      admit: async (actor) => ({ code: 'NOT_OPERATOR', user: actor.userId }),
    });
    const stranger = createHomeTab({
      world: await loadExampleWorld(),
      service: refusing.service,
      publisher: { publish: async (user, view) => void published.push({ user, view }) },
      poster: createRecordingPoster().poster,
      jobPageUrl: () => undefined,
      clock: createInstantClock(),
      logger: captureLogger((text) => text).logger,
    });
    await stranger.verifyClicked('U0MALLORY', 'dev');
    expect(refusing.asked().filter((call) => call.op === 'submit')).toEqual([]);
    expect(textOf(published[0]!.view)).toContain('not an operator');
  });

  it('run() refreshes until aborted and survives a failing round', async () => {
    const { service } = await homeTabLab();
    let rounds = 0;
    const failing: ClusterService = {
      ...service,
      homeWatchers: async () => {
        rounds += 1;
        throw new Error('redis down');
      },
    };
    const { logger, lines } = captureLogger((text) => text);
    const tab = createHomeTab({
      world: await loadExampleWorld(),
      service: failing,
      publisher: { publish: async () => undefined },
      poster: createRecordingPoster().poster,
      jobPageUrl: () => undefined,
      clock: createInstantClock(),
      logger,
    });
    const stop = new AbortController();
    const running = tab.run(1_000, stop.signal);
    while (rounds < 3) await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    await running;
    expect(lines.some((line) => line.includes('App Home refresh failed'))).toBe(true);
  });
});
