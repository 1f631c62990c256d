/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { showLastLogLine } from '../support/show-last-log-line.js';
import { type LabBrowser, startBrowser } from '../support/start-browser.js';
import { startPageLab } from '../support/start-page-lab.js';

const LINES = 100_000;
const STEP = { id: '1-verify', title: 'verify gates', target: 'dev', disruptive: false };

let lab: Awaited<ReturnType<typeof startPageLab>>;
let chromium: LabBrowser;

beforeAll(async () => {
  [lab, chromium] = await Promise.all([startPageLab(), startBrowser()]);
});

afterAll(async () => {
  await chromium?.browser.close();
  await lab?.stop();
});

/** The job page with a job of 100k lines, in a real browser: the page's server over real Redis. */
describe('a 100k-line job page', () => {
  // How fast is the benchmark's (jobPage.openMs): a timed assertion here would only measure the machine's load.
  it('scrolled to the end it shows the last line, with few DOM nodes', async () => {
    const job = await lab.startJob([STEP]);
    for (let i = 1; i <= LINES; i += 1) {
      const written = job.feed.line(`ok: [k3s-dev-${i % 3}] => line ${i} of the long job`);
      if (written) await written;
    }
    job.feed.end();
    await job.feed.flush();

    const { page } = await chromium.open(job.url);
    await page.waitForFunction(
      (n) => document.body.dataset.lines === String(n),
      { timeout: labMs(10_000) },
      LINES,
    );
    await showLastLogLine(page, `line ${LINES} of the long job`, 5_000);
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(nodes).toBeLessThan(500);

    // Filtering to one host keeps the window small too, and shows only that host's lines.
    await page.select('#host', 'k3s-dev-1');
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll('#log-rows .row')];
        return rows.length > 0 && rows.every((row) => row.textContent?.includes('[k3s-dev-1]'));
      },
      { timeout: labMs(5_000) },
    );
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(500);
    await page.close();
  });

  it('shows a line written while the page is open, before the job ends', async () => {
    const job = await lab.startJob([STEP]);
    job.feed.line('TASK [first] ***');
    await job.feed.flush();
    const { page } = await chromium.open(job.url);
    await page.waitForFunction(() => document.body.dataset.lines === '1', { timeout: labMs(5_000) });
    const printed = performance.now();
    job.feed.line('ok: [k3s-dev-1] => the line printed later');
    await page.waitForFunction(
      () => document.getElementById('log-rows')?.textContent?.includes('the line printed later'),
      { timeout: labMs(5_000) },
    );
    console.info(`line written → visible on the open page: ${(performance.now() - printed).toFixed(0)} ms`);
    expect(await page.evaluate(() => document.body.dataset.ended)).toBeUndefined();
    await page.close();
  });

  it('resumes the log stream after Last-Event-ID, and ends it once the log is complete', async () => {
    const job = await lab.startJob([STEP]);
    for (let i = 1; i <= 10; i += 1) job.feed.line(`line ${i}`);
    job.feed.end();
    await job.feed.flush();
    const logUrl = job.url.replace('?', '/log?');
    const whole = await (await fetch(logUrl)).text();
    const ids = [...whole.matchAll(/^id: (\S+)$/gm)].map((match) => match[1]!);
    expect(whole).toMatch(/^event: lines\ndata: line 1\n(?:data: line \d+\n){9}\n/m);
    expect(whole.trimEnd().endsWith('event: end\ndata:')).toBe(true);

    // The stream also marks where each step began: resume after the entry that holds line 5.
    const entries = await lab.redis.xrange(lab.keys.feedLog(job.id), '-', '+');
    const fifth = entries.find(([, fields]) => fields[1] === 'line 5')![0];
    const resumed = await fetch(logUrl, { headers: { 'last-event-id': fifth } });
    expect(resumed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const rest = await resumed.text();
    expect([...rest.matchAll(/^data: (line \d+)$/gm)].map((match) => match[1])).toEqual([
      'line 6',
      'line 7',
      'line 8',
      'line 9',
      'line 10',
    ]);
    expect(ids.at(-1)).toBe((await lab.redis.xrange(lab.keys.feedLog(job.id), '-', '+')).at(-2)![0]);
  });
});
