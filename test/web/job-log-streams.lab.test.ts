import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCleanupStack } from '../support/cleanup-stack.js';
import { type LogStream, openLogStream } from '../support/open-log-stream.js';
import { startPageLab } from '../support/start-page-lab.js';
import { waitFor } from '../support/wait-for.js';

const STEP = { id: '1-up', title: 'site.yml', target: 'dev', disruptive: false };
const BATCH_BYTES = 4_096;

let lab: Awaited<ReturnType<typeof startPageLab>>;
const streams = createCleanupStack();

beforeAll(async () => {
  lab = await startPageLab(undefined, { perProcess: 3, perJob: 2, batchBytes: BATCH_BYTES, idleMs: 1_000 });
});
afterAll(async () => {
  await streams.run();
  await lab?.stop();
});

/** A job whose log has `lines` lines of about `width` bytes, ended or still running. */
async function jobWithLog(lines: number, options: { ended: boolean; width?: number }) {
  const job = await lab.startJob([STEP]);
  const pad = 'x'.repeat(options.width ?? 40);
  for (let i = 1; i <= lines; i += 1) {
    const written = job.feed.line(`ok: [k3s-dev-${i % 3}] => line ${i} ${pad}`);
    if (written) await written;
  }
  if (options.ended) job.feed.end();
  await job.feed.flush();
  return job;
}

async function open(url: string, options: { paused?: boolean } = {}): Promise<LogStream> {
  const stream = await openLogStream(url, options);
  streams.push(() => stream.close());
  return stream;
}

const streamsOpen = (n: number) => () => lab.pages.stats().streams === n;

describe('job page log streams: caps, idle readers, batch size, one poller per job', () => {
  it('answers 429 with a readable reason past the per-job and per-process caps, and frees a slot when a stream closes', async () => {
    const [a, b, c] = [
      await jobWithLog(1, { ended: false }),
      await jobWithLog(1, { ended: false }),
      await jobWithLog(1, { ended: false }),
    ];
    const first = await open(a.url);
    await open(a.url);
    expect(first.status).toBe(200);
    const thirdOfA = await open(a.url);
    expect(thirdOfA.status).toBe(429);
    await thirdOfA.ended;
    expect(thirdOfA.text()).toMatch(/^Too many open log streams for this job \(2\)/);

    expect((await open(b.url)).status).toBe(200);
    const fourth = await open(c.url);
    expect(fourth.status).toBe(429);
    await fourth.ended;
    expect(fourth.text()).toMatch(/^Too many open log streams \(3\)/);

    first.close();
    await waitFor('the closed stream to free its slot', streamsOpen(2));
    const again = await open(a.url);
    expect(again.status).toBe(200);
    await waitFor('the log line on the new stream', () => again.events().some((e) => e.includes('line 1 ')));
    await streams.run();
    await waitFor('every stream closed', streamsOpen(0));
  });

  it('closes a stream whose reader stopped taking anything, after the idle timeout', async () => {
    // 20 MB: more than the loopback socket's buffers take, so the server's writes back up.
    const job = await jobWithLog(100_000, { ended: true, width: 200 });
    const stalled = await open(job.url, { paused: true });
    expect(stalled.status).toBe(200);
    await waitFor('the stalled stream to be open', streamsOpen(1));
    await waitFor('the stalled stream to be closed by the idle timeout', streamsOpen(0), {
      timeoutMs: 30_000,
    });
    // The reader, coming back, finds the stream cut off before the log's end.
    stalled.resume();
    await stalled.ended;
    expect(stalled.events().some((event) => event.startsWith('event: end'))).toBe(false);
  });

  it('gives a slow reader the whole log in events of at most the batch size', async () => {
    const job = await jobWithLog(20_000, { ended: true });
    const slow = await open(job.url);
    // Reads in fits and starts: paused each time something arrived, resumed on the next turn.
    const pacing = setInterval(() => {
      slow.pause();
      setTimeout(() => slow.resume(), 5);
    }, 10);
    try {
      await waitFor('the end of the log', () => slow.events().some((e) => e.startsWith('event: end')), {
        timeoutMs: 40_000,
      });
    } finally {
      clearInterval(pacing);
    }
    const batches = slow.events().filter((event) => event.includes('event: lines'));
    const numbers = batches.flatMap((event) =>
      [...event.matchAll(/=> line (\d+) /g)].map((m) => Number(m[1])),
    );
    expect(numbers).toEqual(Array.from({ length: 20_000 }, (_, i) => i + 1));
    const largest = Math.max(
      ...batches.map((event) => Buffer.byteLength(event.replace(/^id: .*\nevent: lines\n/, ''))),
    );
    expect(largest).toBeLessThanOrEqual(BATCH_BYTES);
    expect(batches.length).toBeGreaterThan(20_000 / 80);
  });

  it('two streams of one job waiting for lines share one poller: one read per poll, not one per stream', async () => {
    const job = await jobWithLog(1, { ended: false });
    const one = await open(job.url);
    const two = await open(job.url);
    for (const stream of [one, two])
      await waitFor('the first line on each stream', () =>
        stream.events().some((e) => e.includes('line 1 ')),
      );
    await waitFor('the job polled once for both', () => lab.pages.stats().pollers === 1);
    const before = lab.pages.stats();
    const after = await waitFor('ten more polls', () => {
      const now = lab.pages.stats();
      return now.polls >= before.polls + 10 && now;
    });
    expect(after.pollers).toBe(1);
    expect(after.pollReads - before.pollReads).toBe(after.polls - before.polls);
    // A line printed now reaches both streams from the shared poll.
    job.feed.line('ok: [k3s-dev-1] => printed later');
    await job.feed.flush();
    for (const stream of [one, two])
      await waitFor('the later line on each stream', () =>
        stream.events().some((e) => e.includes('printed later')),
      );
    await streams.run();
    await waitFor('no poller left once the streams closed', () => lab.pages.stats().pollers === 0);
  });
});
