import { connectRedis } from '../src/app/connect-redis.js';
import { readEnv } from '../src/config/read-env.js';
import { showLastLogLine } from '../test/support/show-last-log-line.js';
import { type LabBrowser, startBrowser } from '../test/support/start-browser.js';
import { startPageLab } from '../test/support/start-page-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { percentile, round } from './stats.js';

const LINES = 100_000;
const CHUNK = 100;
const CHUNK_EVERY_MS = 10;
const PROBE_EVERY_CHUNKS = 10;

export interface JobPageFigures {
  readonly jobPage: {
    p50: number;
    p99: number;
    n: number;
    lines: number;
    seconds: number;
    domElements: number;
    /** A fresh page of the ended job: opened, scrolled to the end, its last line shown. */
    openMs: number;
  };
}

/**
 * "Line printed → visible on an open job page" while a job streams 100k lines (10k lines/s): the
 * worker's feed writer (create-redis-job-feed.ts) writes to the real Redis, the bot's page server
 * streams to Debian's chromium. Every 100 ms a probe line carries the time it was written; the page
 * notes when each probe is in its log and the frame showing it has rendered (the same machine's
 * clock on both sides).
 */
export async function measureJobPage(redis: BenchRedis): Promise<JobPageFigures> {
  const { env, prefix, cleanup } = redis.space('page');
  const space = { connect: () => connectRedis(readEnv(env)), prefix, cleanup };
  const [lab, chromium] = await Promise.all([startPageLab(space), startBrowser()]);
  try {
    const job = await lab.startJob([{ id: '1-up', title: 'site.yml', target: 'dev', disruptive: false }]);
    job.feed.line('PLAY [all] ***');
    await job.feed.flush();
    const { page } = await chromium.open(job.url);
    await page.waitForFunction(() => document.body.dataset.lines === '1', { timeout: 10_000 });
    // Runs in the page: after each frame, the probes that reached the page's log since the last one.
    await page.evaluate(`(() => {
      window.probeLatencies = [];
      let seen = 0;
      const watch = () => {
        for (; seen < log.lines.length; seen += 1) {
          const probe = /^PROBE (\\d+)$/.exec(log.lines[seen]);
          if (probe) requestAnimationFrame(() => window.probeLatencies.push(Date.now() - Number(probe[1])));
        }
        requestAnimationFrame(watch);
      };
      watch();
    })()`);
    const started = performance.now();
    let written = 1;
    for (let chunk = 0; written < LINES; chunk += 1) {
      if (chunk % PROBE_EVERY_CHUNKS === 0) job.feed.line(`PROBE ${Date.now()}`);
      for (let i = 0; i < CHUNK; i += 1) {
        const pending = job.feed.line(`ok: [k3s-dev-${written % 3}] => streamed line ${written}`);
        if (pending) await pending;
        written += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, CHUNK_EVERY_MS));
    }
    job.feed.line(`PROBE ${Date.now()}`);
    job.feed.end();
    await job.feed.flush();
    const seconds = (performance.now() - started) / 1_000;
    await page.waitForFunction(() => document.body.dataset.ended === 'true', { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const samples = (await page.evaluate('window.probeLatencies')) as number[];
    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
    const openMs = await openEndedJob(chromium, job.url, written - 1);
    return {
      jobPage: {
        p50: round(percentile(samples, 50)),
        p99: round(percentile(samples, 99)),
        n: samples.length,
        lines: written,
        seconds: round(seconds),
        domElements,
        openMs: round(openMs),
      },
    };
  } finally {
    await chromium.browser.close();
    await lab.stop();
  }
}

/** Opens the page of an ended job, scrolls to its end and waits until its last line is shown: how long a reader waits. */
async function openEndedJob(chromium: LabBrowser, url: string, lastLine: number): Promise<number> {
  const started = performance.now();
  const { page } = await chromium.open(url);
  try {
    await page.waitForFunction(() => document.body.dataset.ended === 'true', { timeout: 30_000 });
    await showLastLogLine(page, `line ${lastLine}`, 30_000);
    return performance.now() - started;
  } finally {
    await page.close();
  }
}
