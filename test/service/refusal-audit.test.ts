import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHomeTab } from '../../src/bot/create-home-tab.js';
import { handleRollbackClick } from '../../src/bot/handle-rollback-click.js';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { handleClusterCommand } from '../../src/conversation/handle-cluster-command.js';
import { startServiceInMemory } from '../support/cluster-service-in-memory.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createRecordingPoster } from '../support/recording-poster.js';

/** Operates dev only; prod is Bob's. */
const DAVE = 'U0DAVE';
const BOB = 'U0BOB';
const PER_MINUTE = 4;
/** Mid-minute and still: the per-minute count never rolls over during a test. */
const NOW = Date.UTC(2026, 11, 1, 12, 0, 30);

let world: WorldConfig;
let t: ReturnType<typeof startServiceInMemory>;

beforeEach(async () => {
  const base = await loadExampleWorld();
  world = {
    ...base,
    clusters: {
      dev: { ...base.clusters.dev!, operators: [DAVE] },
      prod: { ...base.clusters.prod!, operators: [BOB] },
    },
  };
  t = startServiceInMemory(world, { perMinute: PER_MINUTE, startAt: NOW });
});

const typed = (text: string, userId: string, channelId = 'C0OPS') =>
  handleClusterCommand({ text, userId, channelId }, { marks: MRKDWN, service: t.service, world }).then(
    (r) => r.text,
  );
const refusals = async () =>
  (await t.audit.trail.recent(50))
    .filter((entry) => entry.action === 'refused' || entry.action === 'click-refused')
    .map(({ who, action, what, cluster, jobId }) => ({ who, action, what, cluster, jobId }));

describe('refusals for want of rights are audited, within the rate limit', () => {
  it('a command: who, what they typed, when and on which cluster', async () => {
    expect(await typed('cilium prod', DAVE)).toMatch(/^⛔ <@U0DAVE> is not an operator of prod/);
    expect(await typed('status', DAVE, 'C0RANDOM')).toMatch(/^⛔ \/cluster is not accepted/);
    expect(await refusals()).toEqual([
      {
        who: DAVE,
        action: 'refused',
        what: 'status: not accepted in channel C0RANDOM',
        cluster: undefined,
        jobId: undefined,
      },
      {
        who: DAVE,
        action: 'refused',
        what: 'cilium prod: not an operator of prod',
        cluster: 'prod',
        jobId: undefined,
      },
    ]);
    const [latest] = await t.audit.trail.recent(1);
    expect(latest!.at).toBe(NOW);
    // Nothing was queued: the refusal took no job number.
    expect(await t.records.store.get('job-1')).toBeUndefined();
  });

  it("a workspace member's flood of refused commands adds no more entries than the rate limit lets through", async () => {
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 6; i++) answers.push(await typed('up dev', 'U0MALLORY'));
    expect(answers.filter((a) => a.startsWith('⏳ Slow down'))).toHaveLength(6);
    expect(await refusals()).toHaveLength(PER_MINUTE);
  });

  it('a "Verify now" click on a cluster the clicker does not operate is audited like the command', async () => {
    const published: string[] = [];
    const home = createHomeTab({
      world,
      service: t.service,
      publisher: { publish: async (userId) => void published.push(userId) },
      poster: createRecordingPoster().poster,
      jobPageUrl: () => undefined,
      clock: { sleep: async () => undefined },
      logger: pino({ level: 'silent' }),
    });
    // A forged button: Dave's Home offers no prod button.
    await home.verifyClicked(DAVE, 'prod');
    expect(published).toEqual([DAVE]);
    expect(await refusals()).toEqual([
      {
        who: DAVE,
        action: 'refused',
        what: 'verify prod: not an operator of prod',
        cluster: 'prod',
        jobId: undefined,
      },
    ]);
  });

  it('a "Roll back" click: refused for rights or on a job that offers none is audited, and clicks are rate limited', async () => {
    const { poster } = createRecordingPoster();
    const click = (userId: string, value: string) =>
      handleRollbackClick(
        { userId, value, channel: 'C0OPS', threadTs: '1.1' },
        { service: t.service, poster },
      );
    await t.service.submit({ userId: DAVE, channelId: 'C0OPS' }, { verb: 'cilium', cluster: 'dev' }, false);
    const record = (await t.records.store.get('job-1'))!;
    t.records.rewrite({ ...record, outcome: 'failed', finishedAt: NOW });
    t.leases.free('dev');

    expect(await click(BOB, 'job-1')).toMatch(/^⛔ <@U0BOB> is not an operator of dev/);
    expect(await click(DAVE, 'job-9')).toMatch(/^⛔ This button does not belong to a job/);
    expect(await refusals()).toEqual([
      {
        who: DAVE,
        action: 'click-refused',
        what: 'roll back Cilium: no-such-job',
        cluster: undefined,
        jobId: undefined,
      },
      {
        who: BOB,
        action: 'click-refused',
        what: 'roll back Cilium from job #1: not an operator of dev',
        cluster: 'dev',
        jobId: 'job-1',
      },
    ]);
    // Dave has used one of his clicks; the rest of the minute's, then "slow down", nothing queued.
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) answers.push(await click(DAVE, 'job-8'));
    expect(answers.filter((a) => a.startsWith('⏳ Slow down'))).toHaveLength(3);
    expect(await click(DAVE, 'job-1')).toMatch(/^⏳ Slow down/);
    expect(await t.records.store.get('job-2')).toBeUndefined();
  });
});
