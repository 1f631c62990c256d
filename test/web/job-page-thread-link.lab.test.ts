/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_ROOT } from '../../src/delivery/delivery.js';
import { labMs } from '../support/lab-time.js';
import { type LabBrowser, startBrowser } from '../support/start-browser.js';
import { startPageLab } from '../support/start-page-lab.js';

const STEP = { id: '1-verify', title: 'verify gates', target: 'dev', disruptive: false };
const ROOT_TS = '1764400000.000100';

/** What the poster's permalink gives: a test sets it, as a workspace URL from auth.test would. */
let permalink = (channel: string, ts: string) =>
  `https://cluster-lab.slack.com/archives/${channel}/p${ts.replace('.', '')}`;

let lab: Awaited<ReturnType<typeof startPageLab>>;
let chromium: LabBrowser;
beforeAll(async () => {
  [lab, chromium] = await Promise.all([
    startPageLab(undefined, {}, (channel, ts) => permalink(channel, ts)),
    startBrowser(),
  ]);
}, labMs(30_000));
afterAll(async () => {
  await chromium?.browser.close();
  await lab?.stop();
});

/** A job whose thread's root message was posted (its ts kept where the outbox's sender keeps it). */
async function jobWithThread(): Promise<string> {
  const job = await lab.startJob([STEP]);
  await lab.redis.hset(lab.keys.threadMessages(job.id), THREAD_ROOT, ROOT_TS);
  return job.url;
}

const threadLinkOn = async (url: string) => {
  const { page } = await chromium.open(url);
  await page.waitForFunction(() => document.querySelector('#facts dt') !== null, { timeout: labMs(5_000) });
  const shown = await page.evaluate(() => ({
    link: document.getElementById('thread-link')?.getAttribute('href') ?? null,
    hrefs: [...document.querySelectorAll('[href]')].map((node) => node.getAttribute('href') ?? ''),
  }));
  await page.close();
  return shown;
};

describe("the job page's link back to the Slack thread", { timeout: labMs(30_000) }, () => {
  it("links the thread's root message at the workspace's address, asked of no Slack API", async () => {
    const shown = await threadLinkOn(await jobWithThread());
    expect(shown.link).toBe(`https://cluster-lab.slack.com/archives/C0OPS/p${ROOT_TS.replace('.', '')}`);
  });

  it('a re-run says which job it re-runs, and where each step it skipped was done', async () => {
    const carried = {
      ...STEP,
      id: '2-node-baseline',
      title: 'node-baseline.yml',
      status: 'skipped',
      detail: 'done in #41',
    } as const;
    const job = await lab.startJob([STEP, carried], { jobId: 'job-41', number: 41, channel: 'C0OPS' });
    const { page } = await chromium.open(job.url);
    await page.waitForFunction(() => document.querySelector('#steps li') !== null, { timeout: labMs(5_000) });
    const shown = await page.evaluate(() => ({
      facts: document.getElementById('facts')?.textContent ?? '',
      steps: [...document.querySelectorAll('#steps li > span')].map((node) => node.textContent),
    }));
    await page.close();
    expect(shown.facts).toContain('Re-run ofjob #41');
    expect(shown.steps).toContain('node-baseline.yml → dev (skipped: done in #41)');
  });

  it('a job whose thread was never posted links none', async () => {
    const job = await lab.startJob([STEP]);
    expect((await threadLinkOn(job.url)).link).toBeNull();
  });

  it('an address that is not https:// is never written into a link', async () => {
    permalink = () => 'javascript:alert(document.domain)';
    try {
      const shown = await threadLinkOn(await jobWithThread());
      expect(shown.link).toBeNull();
      expect(shown.hrefs.filter((href) => !href.startsWith('../assets/'))).toEqual([]);
    } finally {
      permalink = (channel, ts) =>
        `https://cluster-lab.slack.com/archives/${channel}/p${ts.replace('.', '')}`;
    }
  });
});
