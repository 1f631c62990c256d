import { beforeEach, describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { renderHome } from '../../src/bot/render-home.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import type { HomeAnswer } from '../../src/service/index.js';
import { describeReply } from '../../src/wording/describe-reply.js';
import { startServiceInMemory } from '../support/cluster-service-in-memory.js';
import { loadExampleWorld } from '../support/example-world.js';

/** Operates dev only (through the S0DEVOPS group). */
const DAVE = { userId: 'U0DAVE', channelId: 'C0OPS' };
/** Operates prod only. */
const BOB = { userId: 'U0BOB', channelId: 'C0OPS' };
/** Operates both. */
const ERIN = { userId: 'U0ERIN', channelId: 'C0OPS' };
/** In access.operators, which both clusters override: may use the bot, operates no cluster. */
const ALICE = { userId: 'U0ALICE', channelId: 'C0OPS' };

let t: ReturnType<typeof startServiceInMemory>;

beforeEach(async () => {
  const base = await loadExampleWorld();
  const world: WorldConfig = {
    ...base,
    clusters: {
      dev: { ...base.clusters.dev!, operators: ['S0DEVOPS', 'U0ERIN'] },
      prod: { ...base.clusters.prod!, operators: ['U0BOB', 'U0ERIN'] },
    },
  };
  t = startServiceInMemory(world, { groups: new Map([['S0DEVOPS', ['U0DAVE']]]) });
  // job-1 holds dev, job-2 waits behind it; job-3 holds prod.
  await t.service.submit(DAVE, { verb: 'cilium', cluster: 'dev' }, false);
  await t.service.submit(DAVE, { verb: 'up', cluster: 'dev' }, true);
  await t.service.submit(BOB, { verb: 'cilium', cluster: 'prod' }, false);
  // A forged Approve button names no job: its audit entry concerns no cluster.
  await t.service.decide(BOB, { decision: 'approve', value: 'forged', messageTs: '1.1' }, async () => {});
});

const clustersOf = (answer: HomeAnswer) =>
  'kind' in answer ? answer.clusters.map((c) => c.cluster) : answer;
const homeView = (answer: HomeAnswer) =>
  JSON.stringify(
    renderHome(answer, {
      jobPageUrl: (jobId) => `https://bot.test/jobs/${jobId}?exp=1&sig=s`,
      verifyChannel: () => 'C0OPS',
    }).blocks,
  );

describe('reads show each person only the clusters they operate', () => {
  it('status: a dev-only operator sees dev, and is refused prod by name; a prod operator sees prod', async () => {
    expect(await t.service.status(DAVE)).toMatchObject({
      kind: 'status',
      clusters: [{ cluster: 'dev', holder: { id: 'job-1' }, waiting: ['job-2'] }],
    });
    expect(await t.service.status(DAVE, 'prod')).toEqual({
      code: 'NOT_OPERATOR',
      user: 'U0DAVE',
      cluster: 'prod',
    });
    expect(await t.service.status(BOB)).toMatchObject({
      kind: 'status',
      clusters: [{ cluster: 'prod', holder: { id: 'job-3' } }],
    });
    const both = await t.service.status(ERIN);
    expect('kind' in both && both.clusters.map((c) => c.cluster)).toEqual(['dev', 'prod']);
  });

  it("jobs: each lists only their clusters' jobs", async () => {
    const ids = async (actor: typeof DAVE) => {
      const answer = await t.service.jobs(actor);
      return 'jobs' in answer ? answer.jobs.map((job) => job.id) : answer;
    };
    expect(await ids(DAVE)).toEqual(['job-2', 'job-1']);
    expect(await ids(BOB)).toEqual(['job-3']);
    expect(await ids(ERIN)).toEqual(['job-3', 'job-2', 'job-1']);
  });

  it('audit: filtered by cluster; what concerns no cluster only for who operates every one', async () => {
    const entries = async (actor: typeof DAVE) => {
      const answer = await t.service.audit(actor, 50);
      return 'entries' in answer ? answer.entries.map((e) => [e.cluster, e.action, e.what]) : answer;
    };
    expect(await entries(DAVE)).toEqual([
      ['dev', 'command', 'up dev'],
      ['dev', 'command', 'cilium dev'],
    ]);
    expect(await entries(BOB)).toEqual([['prod', 'command', 'cilium prod']]);
    expect(await entries(ERIN)).toEqual([
      [undefined, 'click-refused', 'approve: the button matches no pending approval'],
      ['prod', 'command', 'cilium prod'],
      ['dev', 'command', 'up dev'],
      ['dev', 'command', 'cilium dev'],
    ]);
    // The count is of the person's own entries, looked for further back than the newest `count`.
    for (let i = 0; i < 700; i++) {
      await t.audit.trail.record({
        at: Date.now(),
        who: 'U0BOB',
        action: 'cancel',
        what: `prod ${i}`,
        cluster: 'prod',
      });
    }
    const behind = await t.service.audit(DAVE, 2);
    expect('entries' in behind && behind.entries.map((e) => e.what)).toEqual(['up dev', 'cilium dev']);
  });

  it('App Home: a dev-only operator gets no prod section, no link to a prod job, no prod button', async () => {
    const [dave, bob] = await t.service.homes([DAVE, BOB]);
    expect(clustersOf(dave!)).toEqual(['dev']);
    expect(clustersOf(bob!)).toEqual(['prod']);
    const daveView = homeView(dave!);
    expect(daveView).toContain('https://bot.test/jobs/job-1?');
    expect(daveView).toContain('https://bot.test/jobs/job-2?');
    expect(daveView).not.toContain('job-3');
    expect(daveView).not.toMatch(/prod/);
    const bobView = homeView(bob!);
    expect(bobView).toContain('https://bot.test/jobs/job-3?');
    expect(bobView).not.toMatch(/job-[12]\b|"value":"dev"/);
    expect(clustersOf(await t.service.home(ERIN))).toEqual(['dev', 'prod']);
  });

  it('someone who may use the bot but operates no cluster is told so on every read, not shown an empty page', async () => {
    const refusal = { code: 'NO_CLUSTERS', user: 'U0ALICE' };
    expect(await t.service.status(ALICE)).toEqual(refusal);
    expect(await t.service.jobs(ALICE)).toEqual(refusal);
    expect(await t.service.audit(ALICE, 10)).toEqual(refusal);
    expect(await t.service.home(ALICE)).toEqual(refusal);
    expect(describeReply(refusal as never, MRKDWN)).toBe(
      "⛔ <@U0ALICE> is an operator of none of this bot's clusters (clusters.<name>.operators, else access.operators in its config), so there is nothing to show.",
    );
    const view = homeView(await t.service.home(ALICE));
    expect(view).toContain('is an operator of none');
    expect(view).not.toMatch(/job-\d|"type":"actions"/);
  });
});
