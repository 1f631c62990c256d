import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRoundTripCounter, type RoundTripCounter } from '../../bench/count-round-trips.js';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { handleClusterCommand } from '../../src/conversation/handle-cluster-command.js';
import { startServiceOnRedis } from '../support/cluster-service-on-redis.js';
import { loadExampleWorld } from '../support/example-world.js';

let t: ReturnType<typeof startServiceOnRedis>;
let trips: RoundTripCounter;
let command: (text: string, trigger: string, userId?: string) => ReturnType<typeof handleClusterCommand>;

beforeEach(async () => {
  const world = await loadExampleWorld();
  t = startServiceOnRedis(world);
  trips = createRoundTripCounter();
  trips.watch(t.redis);
  command = (text, trigger, userId = 'U0ALICE') =>
    handleClusterCommand(
      { text, userId, channelId: 'C0OPS', deliveryKey: `command:${trigger}` },
      { marks: MRKDWN, service: t.service, world },
    );
  // BullMQ's first add on a connection reads the server's version and writes the queue's meta once.
  await command('verify dev', 'T0');
});
afterEach(async () => {
  await t.stop();
});

/** The BullMQ jobs of the queue, by id. */
const queuedJobs = async () => (await t.queue.queue.getJobs(['waiting'])).map((job) => job.id).sort();

describe('the ack of a /cluster command: one script for the bot, then BullMQ’s add', () => {
  it('queues `verify dev` with its admission, number, record and audit entry in one round trip, plus the add', async () => {
    const before = trips.count();
    const { text } = await command('verify dev', 'T1');
    expect(text).toBe('Queued as job #2: `verify dev`. Progress goes into its thread.');
    // The bot's own writes (dedup, rate limit, number, record, audit) are one script; BullMQ's add is its own script.
    expect(
      trips
        .sent()
        .slice(before)
        .map(([first]) => first?.split(' ')[0]),
    ).toEqual(['eval', 'evalsha']);
    expect(await t.records.get('job-2')).toMatchObject({
      number: 2,
      requestedBy: 'U0ALICE',
      channel: 'C0OPS',
    });
    expect(await t.redis.lrange(t.keys.recentJobs, 0, -1)).toEqual(['job-2', 'job-1']);
    const [entry] = await t.audit.recent(1);
    expect(entry).toMatchObject({ who: 'U0ALICE', action: 'command', what: 'verify dev', jobId: 'job-2' });
    expect(await queuedJobs()).toEqual(['job-1', 'job-2']);
  });

  it('answers a repeated delivery with nothing, in one round trip: no job, no number, no audit entry', async () => {
    const before = trips.count();
    const { reply } = await command('verify dev', 'T0');
    expect(reply).toEqual({ code: 'REPEATED_DELIVERY' });
    expect(trips.count() - before).toBe(1);
    expect(await t.audit.recent(10)).toHaveLength(1);
    expect(await queuedJobs()).toEqual(['job-1']);
    // Nor is the repeat counted against its sender.
    expect((await command('verify dev', 'T2')).text).toContain('job #2');
  });

  it('refuses a mutating command on a busy cluster without taking a number, audited', async () => {
    expect((await command('cilium dev', 'T3')).text).toContain('job #2');
    const { reply } = await command('up dev', 'T4', 'U0BOB');
    expect(reply).toMatchObject({ code: 'BUSY', cluster: 'dev', holder: { id: 'job-2' } });
    expect(await t.clusterLeases.holder('dev')).toBe('job-2');
    const [refused] = await t.audit.recent(1);
    expect(refused).toMatchObject({ who: 'U0BOB', action: 'refused', what: 'up dev: busy' });
    expect((await command('verify dev', 'T5')).text).toContain('job #3');
    expect(await queuedJobs()).toEqual(['job-1', 'job-2', 'job-3']);
  });

  it('refuses a command over its sender’s limit in the same round trip, taking no number', async () => {
    const world = await loadExampleWorld();
    const limited = startServiceOnRedis(world, { perMinute: 1 });
    try {
      const send = (trigger: string) =>
        handleClusterCommand(
          { text: 'verify dev', userId: 'U0ALICE', channelId: 'C0OPS', deliveryKey: trigger },
          { marks: MRKDWN, service: limited.service, world },
        );
      expect((await send('command:L1')).text).toContain('job #1');
      trips.watch(limited.redis);
      const before = trips.count();
      expect((await send('command:L2')).reply).toEqual({ code: 'RATE_LIMITED', perMinute: 1 });
      expect(trips.count() - before).toBe(1);
      expect(await limited.redis.get(limited.keys.jobCounter)).toBe('1');
    } finally {
      await limited.stop();
    }
  });

  it('counts and deduplicates a submit refused before its job (not an operator of prod): the limit ends it, a replay answers nothing', async () => {
    const world = await loadExampleWorld();
    const prodForAliceOnly: WorldConfig = {
      ...world,
      clusters: { ...world.clusters, prod: { ...world.clusters.prod!, operators: ['U0ALICE'] } },
    };
    const limited = startServiceOnRedis(prodForAliceOnly, { perMinute: 2 });
    try {
      const send = (trigger: string) =>
        handleClusterCommand(
          { text: 'up prod', userId: 'U0BOB', channelId: 'C0OPS', deliveryKey: `command:${trigger}` },
          { marks: MRKDWN, service: limited.service, world: prodForAliceOnly },
        );
      const notOperator = { code: 'NOT_OPERATOR', user: 'U0BOB', cluster: 'prod' };
      expect((await send('R1')).reply).toEqual(notOperator);
      expect((await send('R1')).reply).toEqual({ code: 'REPEATED_DELIVERY' });
      expect((await send('R2')).reply).toEqual(notOperator);
      expect((await send('R3')).reply).toEqual({ code: 'RATE_LIMITED', perMinute: 2 });
      expect(await limited.redis.get(limited.keys.jobCounter)).toBeNull();
    } finally {
      await limited.stop();
    }
  });

  it('tells the person a job BullMQ would not take was not queued, and leaves the cluster free', async () => {
    const queue = t.queue.queue;
    queue.add = async () => {
      throw new Error('Connection is closed.');
    };
    const { text, reply } = await command('cilium dev', 'T6');
    expect(reply).toEqual({ code: 'NOT_QUEUED', command: 'cilium dev' });
    expect(text).toBe(
      '⚠️ Could not queue `cilium dev`: the job queue (Redis) did not take it. Nothing was started; try again.',
    );
    expect(await t.clusterLeases.holder('dev')).toBeNull();
    expect(await t.records.get('job-2')).toMatchObject({ outcome: 'failed' });

    queue.add = Object.getPrototypeOf(queue).add;
    // The same delivery again (Slack's retry) is taken, and the cluster is not busy.
    expect((await command('cilium dev', 'T6')).text).toContain('job #3');
  });

  it('numbers 40 simultaneous commands 2…41, each once, each with its record and its job', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => command('verify dev', `T-many-${i}`, i % 2 ? 'U0BOB' : 'U0ALICE')),
    );
    const numbers = replies.map(({ reply }) =>
      'kind' in reply && reply.kind === 'queued' ? reply.number : 0,
    );
    numbers.sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
    const records = await Promise.all(numbers.map((number) => t.records.get(`job-${number}`)));
    expect(records.every((record) => record !== undefined)).toBe(true);
    expect(await queuedJobs()).toHaveLength(41);
    expect(await t.audit.recent(100)).toHaveLength(41);
  });
});
