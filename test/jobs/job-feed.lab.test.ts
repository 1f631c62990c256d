import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRoundTripCounter } from '../../bench/count-round-trips.js';
import { createRedisJobFeed } from '../../src/jobs/create-redis-job-feed.js';
import { createJobFeedReader } from '../../src/jobs/read-job-feed.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { queueRetireJob } from '../../src/jobs/retire-job.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const { prefix, cleanup } = uniquePrefix('feed');
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const keys = redisKeys(prefix);
const reader = createJobFeedReader(redis, keys);
const silent = pino({ level: 'silent' });

afterAll(async () => {
  redis.disconnect();
  await cleanup();
});

describe('the job page feed in Redis', () => {
  it('stores 100k lines in a few dozen pipelines, in order, and reads them back after any id', async () => {
    const pipelines = vi.spyOn(redis, 'pipeline');
    const feed = createRedisJobFeed(redis, keys, 'job-big', Date.now, silent);
    const started = performance.now();
    for (let i = 1; i <= 100_000; i += 1) {
      const written = feed.line(`ok: [node-${i % 3}] => line ${i} ${'x'.repeat(60)}`);
      if (written) await written;
    }
    feed.end();
    await feed.flush();
    const tookMs = performance.now() - started;
    expect(pipelines.mock.calls.length).toBeLessThan(100);
    pipelines.mockRestore();

    const first = await reader.lines('job-big', '0', 3);
    expect(first.lines.map((line) => line.text.split(' ')[4])).toEqual(['1', '2', '3']);
    const next = await reader.lines('job-big', first.lines[2]!.id, 1);
    expect(next.lines[0]!.text).toContain('line 4 ');
    let after = '0';
    let count = 0;
    let ended = false;
    while (!ended) {
      const chunk = await reader.lines('job-big', after, 10_000);
      count += chunk.lines.length;
      ended = chunk.ended;
      after = chunk.lines.at(-1)?.id ?? after;
      if (chunk.lines.length === 0 && !ended) throw new Error('the end marker is missing');
    }
    expect(count).toBe(100_000);
    const bytes = await redis.memory('USAGE', keys.feedLog('job-big'));
    console.info(`feed: 100k lines written in ${tookMs.toFixed(0)} ms, ${bytes} bytes of Redis`);
  });

  it('hands the final upload only the last 2 MB of the log, in whole lines, once the log has ended', async () => {
    const feed = createRedisJobFeed(redis, keys, 'job-upload', Date.now, silent);
    for (let i = 1; i <= 50_000; i += 1) {
      const written = feed.line(`line ${i} ${'é'.repeat(30)}`);
      if (written) await written;
    }
    await feed.flush();
    // The outcome is queued before the worker ends the log: the upload waits for the end.
    const upload = reader.uploadText('job-upload');
    feed.line('the last line');
    feed.end();
    await feed.flush();
    const [header, first, ...rest] = (await upload).split('\n');
    expect(header).toMatch(/^\[first \d+ lines left out\]$/);
    expect(first).toMatch(/^line \d+ (é){30}$/);
    expect(rest.at(-1)).toBe('the last line');
    expect(Buffer.byteLength(await upload)).toBeLessThanOrEqual(2 * 1024 * 1024 + 200);
    const small = createRedisJobFeed(redis, keys, 'job-upload-small', Date.now, silent);
    small.line('only line');
    small.end();
    await small.flush();
    expect(await reader.uploadText('job-upload-small')).toBe('only line');
  });

  it("marks where each step's output begins, in the log's own order, and leaves the marks out of the upload", async () => {
    const feed = createRedisJobFeed(redis, keys, 'job-marks', Date.now, silent);
    feed.line('queued before any step');
    feed.event({ type: 'step-started', stepId: 'preflight' });
    feed.line('preflight 1');
    feed.line('preflight 2');
    feed.event({
      type: 'step-finished',
      stepId: 'preflight',
      status: 'succeeded',
      durationMs: 5,
      summary: 'ok',
    });
    feed.event({ type: 'step-started', stepId: 'playbook' });
    feed.line('PLAY [all] ***');
    feed.end();
    await feed.flush();
    const { lines } = await reader.lines('job-marks', '0', 100);
    expect(lines.map((line) => line.stepStarts ?? line.text)).toEqual([
      'queued before any step',
      'preflight',
      'preflight 1',
      'preflight 2',
      'playbook',
      'PLAY [all] ***',
    ]);
    expect(await reader.uploadText('job-marks')).toBe(
      ['queued before any step', 'preflight 1', 'preflight 2', 'PLAY [all] ***'].join('\n'),
    );
  });

  it("counts only lines, never a step's mark, among the lines an upload leaves out", async () => {
    const feed = createRedisJobFeed(redis, keys, 'job-marks-big', Date.now, silent);
    for (let i = 1; i <= 30_000; i += 1) {
      if (i % 10_000 === 1) feed.event({ type: 'step-started', stepId: `step-${i}` });
      const written = feed.line(`line ${i} ${'x'.repeat(100)}`);
      if (written) await written;
    }
    feed.end();
    await feed.flush();
    const [header, first, ...rest] = (await reader.uploadText('job-marks-big')).split('\n');
    const kept = 1 + rest.length;
    expect(header).toBe(`[first ${30_000 - kept} lines left out]`);
    expect(first).toBe(`line ${30_000 - kept + 1} ${'x'.repeat(100)}`);
  });

  it("reads an ended log for the thread's upload in two round trips: its newest page, then its length and marks", async () => {
    const feed = createRedisJobFeed(redis, keys, 'job-upload-trips', Date.now, silent);
    feed.event({ type: 'step-started', stepId: 'verify' });
    feed.line('dev-1 Ready');
    feed.line('dev-2 Ready');
    feed.end();
    await feed.flush();
    const trips = createRoundTripCounter();
    const counted = trips.watch(new Redis(REDIS_URL));
    try {
      await counted.ping();
      const before = trips.count();
      expect(await createJobFeedReader(counted, keys).uploadText('job-upload-trips')).toBe(
        'dev-1 Ready\ndev-2 Ready',
      );
      expect(trips.count() - before).toBe(2);
    } finally {
      counted.disconnect();
    }
  });

  it('keeps the events with their times, and expires with the job record', async () => {
    const feed = createRedisJobFeed(redis, keys, 'job-small', () => 1_700_000_000_000, silent);
    feed.event({ type: 'step-started', stepId: 'packages' });
    feed.line('TASK [apt] ***');
    await feed.flush();
    expect(await reader.events('job-small')).toMatchObject([
      { at: 1_700_000_000_000, event: { type: 'step-started', stepId: 'packages' } },
    ]);
    await queueRetireJob(redis.multi(), keys, 'job-small', 60_000).exec();
    for (const key of [keys.feedLog('job-small'), keys.feedEvents('job-small')]) {
      expect(await redis.pttl(key)).toBeGreaterThan(50_000);
    }
  });
});
