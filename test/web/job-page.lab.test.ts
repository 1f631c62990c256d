/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobLinks } from '../../src/web/job-links.js';
import { jobPageKey } from '../../src/web/job-page-key.js';
import { labMs } from '../support/lab-time.js';
import { type LabBrowser, startBrowser } from '../support/start-browser.js';
import { JOB_PAGE_SECRET, type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

const PUBLIC_URL = 'https://cluster-bot.example.test/ops';
const LINK = /<(https:\/\/cluster-bot\.example\.test\/ops\/jobs\/[^|>]+)\|job page/;
const SECRETS = ['LabFakeSlackTokenNotReal', 'hunter2-lab-not-a-real-password', 'LabFakeWebhookSecret'];

let lab: SlackLab;
let chromium: LabBrowser;
/** Where the reverse proxy in front of the bot would send PUBLIC_URL: the bot's own port. */
let local: (link: string) => string;

beforeAll(async () => {
  [lab, chromium] = await Promise.all([
    startSlackLab({
      labVars: { lab_sleep_seconds: 3, lab_output_lines: 20, lab_print_secrets: true },
      env: { PUBLIC_URL },
      slackUsers: { U0ALICE: { name: 'alice' }, U0BOB: { name: 'bob' } },
    }),
    startBrowser(),
  ]);
  local = (link) => link.replace(PUBLIC_URL, `http://127.0.0.1:${lab.bot.port}`);
}, labMs(90_000));

afterAll(async () => {
  await chromium?.browser.close();
  await lab?.stop();
});

/** What of a job a refused page shows: the page's own elements, or any word of the job. */
const jobDataIn = (page: Awaited<ReturnType<LabBrowser['open']>>['page']) =>
  page.evaluate(() => {
    const text = document.body.textContent ?? '';
    const words = ['packages', 'k3s-dev', 'TASK', 'U0ALICE', 'job-'].filter((word) => text.includes(word));
    return document.getElementById('log') || document.getElementById('facts')
      ? ['the page', ...words]
      : words;
  });

/** The header's facts as a reader sees them: each name with its value. */
const factsOf = (page: Awaited<ReturnType<LabBrowser['open']>>['page']) =>
  page.$eval('#facts', (dl) => {
    const facts: Record<string, string> = {};
    for (const dt of dl.querySelectorAll('dt'))
      facts[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
    return facts;
  });

const seconds = (clock: string) => {
  const [h, m, s] = clock.slice(0, 8).split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
};

describe('the job page of a real job (bot process, worker, ansible on the lab, fake Slack, Chromium)', {
  timeout: labMs(180_000),
}, () => {
  it("a packages job's board links to its page under PUBLIC_URL: live log, whole log, timeline, no secret", async () => {
    const { slack, driver } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const board = await slack.waitFor(() => slack.messages('C0OPS').find((m) => LINK.test(m.text)), {
      timeoutMs: 30_000,
      description: 'the board with its page link',
    });
    const link = LINK.exec(board.text)![1]!.replaceAll('&amp;', '&');
    expect(link).toMatch(
      /^https:\/\/cluster-bot\.example\.test\/ops\/jobs\/job-\d+\?n=[\w-]{22}&exp=\d+&mac=/,
    );

    const { page, status } = await chromium.open(local(link));
    expect(status).toBe(200);
    // A line ansible prints shows while the job still runs (the report step sleeps 3 s after it).
    await page.waitForFunction(() => document.getElementById('log-rows')?.textContent?.includes('TASK ['), {
      timeout: labMs(20_000),
    });
    expect(await page.evaluate(() => document.body.dataset.ended)).toBeUndefined();

    await page.waitForFunction(() => document.body.dataset.ended === 'true', { timeout: labMs(60_000) });
    await page.waitForFunction(
      () => document.querySelector('#facts')?.getAttribute('data-status') === 'succeeded',
      { timeout: labMs(5_000) },
    );
    // The whole log: as many lines as the log file the thread uploaded, its last line at the end.
    const file = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === board.ts), {
      timeoutMs: 20_000,
    });
    const fileLines = file.content.replace(/\n$/, '').split('\n');
    expect(await page.evaluate(() => Number(document.body.dataset.lines))).toBe(fileLines.length);
    await page.evaluate(() => {
      const box = document.getElementById('log')!;
      box.scrollTop = box.scrollHeight;
    });
    await page.waitForFunction(
      (last) => [...document.querySelectorAll('#log-rows .row')].some((row) => row.textContent === last),
      { timeout: labMs(5_000) },
      fileLines.at(-1)!,
    );
    // The record's times: the day, when it was asked for and ended, and how long it took in all.
    const facts = await factsOf(page);
    // People by their Slack name beside the id (users.info, once per person, cached).
    expect(facts['Asked by']).toBe('alice (U0ALICE)');
    expect(facts.Date).toBe(new Date().toISOString().slice(0, 10));
    expect(facts.Started).toMatch(/^\d\d:\d\d:\d\d UTC$/);
    expect(facts.Ended).toMatch(/^\d\d:\d\d:\d\d UTC$/);
    const took = seconds(facts.Ended!) - seconds(facts.Started!);
    expect(took).toBeGreaterThanOrEqual(3); // the report step alone sleeps 3 s
    expect(facts.Duration).toMatch(/^(\d+)s$|^\d+m\d\ds$/);
    const shown = /^(\d+)s$/.exec(facts.Duration!);
    if (shown) expect(Math.abs(Number(shown[1]) - took)).toBeLessThanOrEqual(1);
    // Back to the thread the board is the root of, at the workspace's own address (no Slack call).
    const thread = await page.$eval('#thread-link', (a) => ({
      href: a.getAttribute('href'),
      text: a.textContent,
    }));
    expect(thread).toEqual({
      href: `https://${slack.identity.teamDomain}.slack.com/archives/C0OPS/p${board.ts.replace('.', '')}`,
      text: 'open the thread in Slack',
    });
    // `/cluster jobs` lists the job with a link that opens the same page (a new link when the board's expired).
    await driver.slash('jobs', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const listed = await slack.waitFor(
      () => slack.ephemerals.find((e) => e.user === 'U0ALICE' && e.text.startsWith('Recent jobs')),
      { timeoutMs: 10_000, description: 'the answer to /cluster jobs' },
    );
    const line = listed.text.split('\n').find((text) => text.includes('packages k3s-dev-1'))!;
    const relisted = /<(https:[^|>]+)\|job page>$/.exec(line)![1]!.replaceAll('&amp;', '&');
    expect(new URL(relisted).pathname).toBe(new URL(link).pathname);
    const { page: again } = await chromium.open(local(relisted));
    await again.waitForFunction(
      () => document.querySelector('#facts')?.getAttribute('data-status') === 'succeeded',
      {
        timeout: labMs(5_000),
      },
    );
    expect(await again.title()).toBe(await page.title());
    await again.close();
    // Every step of the board is a row of the timeline, with a bar once it ran.
    const steps = await page.$$eval('#steps li', (items) => items.length);
    const rows = await page.$$eval('#timeline g.step', (groups) =>
      groups.map((g) => ({
        label: g.querySelector('text')?.textContent,
        bar: g.querySelector('rect.bar') !== null,
      })),
    );
    expect(steps).toBeGreaterThan(0);
    expect(rows).toHaveLength(steps);
    expect(rows.every((row) => row.bar && row.label)).toBe(true);
    // The per-host recap and the argv of the playbook step.
    expect(
      await page.$$eval('#recap tbody tr', (trs) => trs.map((tr) => tr.firstChild?.textContent)),
    ).toContain('k3s-dev-1');
    expect(await page.$$eval('#steps code', (codes) => codes.map((c) => c.textContent).join('\n'))).toContain(
      'ansible-playbook',
    );
    // Each step that ran links to where its output begins; the playbook's link jumps to its first line.
    const stepLinks = await page.$$eval('#steps li', (items) =>
      items.map((item) => ({
        argv: item.querySelector('code')?.textContent ?? '',
        link: item.querySelector('button.step-log')?.textContent ?? '',
      })),
    );
    expect(stepLinks.every((step) => /^log from line [\d,]+$/.test(step.link))).toBe(true);
    const playbookStep = stepLinks.findIndex((step) => step.argv.includes('ansible-playbook'));
    await page.click(`#steps li:nth-child(${playbookStep + 1}) button.step-log`);
    const target = await page.waitForFunction(
      () => document.querySelector('#log-rows .row.target')?.textContent,
      { timeout: labMs(5_000) },
    );
    const firstLine = Number(/\d+/.exec(stepLinks[playbookStep]!.link.replaceAll(',', ''))![0]);
    expect(await target.jsonValue()).toBe(fileLines[firstLine - 1]);
    expect(fileLines[firstLine - 1]).toMatch(/^# \S+ started$/);
    expect(fileLines.slice(firstLine).some((text) => text.startsWith('PLAY ['))).toBe(true);
    // Each line's time on demand: to the millisecond, within the job's own span.
    await page.click('#times');
    const times = await page.waitForFunction(
      () => {
        const shown = [...document.querySelectorAll('#log-rows .row .time')].map((time) => time.textContent);
        return shown.length > 0 && shown;
      },
      { timeout: labMs(5_000) },
    );
    const shownTimes = ((await times.jsonValue()) || []).map((time) => time ?? '');
    expect(shownTimes.length).toBeGreaterThan(0);
    expect(shownTimes.every((time) => /^\d\d:\d\d:\d\d\.\d{3}$/.test(time))).toBe(true);
    expect([...shownTimes].sort()).toEqual(shownTimes);
    expect(seconds(shownTimes[0]!)).toBeGreaterThanOrEqual(seconds(facts.Started!));
    expect(seconds(shownTimes.at(-1)!)).toBeLessThanOrEqual(seconds(facts.Ended!));
    // The playbook printed secrets: the page, like the thread, shows them redacted.
    const everything = await page.evaluate(
      () => JSON.stringify(performance.getEntries()) + document.body.textContent,
    );
    const log = await (await fetch(`${local(link).replace('?', '/log?')}`)).text();
    for (const secret of SECRETS) expect(everything + log).not.toContain(secret);
    expect(log).toContain('[REDACTED]');

    await page.close();
  });

  it("a tampered, expired, another job's (or an earlier job-1's), a retired job's or missing token: a short page saying what happened and how to get a new link, no data of any job", async () => {
    const key = jobPageKey({ JOB_PAGE_SECRET });
    const linksAt = (now: number) =>
      createJobLinks({
        baseUrl: `http://127.0.0.1:${lab.bot.port}`,
        key,
        ttlMs: 7 * 86_400_000,
        now: () => now,
      });
    // job-1's page nonce, from its board's link (the first test's job).
    const board = lab.slack
      .messages('C0OPS')
      .find((m) => LINK.test(m.text) && m.text.includes('/jobs/job-1?'));
    const nonce = new URL(LINK.exec(board!.text)![1]!.replaceAll('&amp;', '&')).searchParams.get('n')!;
    const valid = linksAt(Date.now()).url('job-1', nonce)!;
    const expired = linksAt(Date.now() - 8 * 86_400_000).url('job-1', nonce)!;
    // Signed with the right key, for a job-1 of another life (before Redis was reset, under a reused prefix).
    const earlierJob = linksAt(Date.now()).url('job-1', 'A'.repeat(22))!;
    const tampered = valid.replace(/mac=(.)/, (_m, c: string) => `mac=${c === 'A' ? 'B' : 'A'}`);
    const otherJob = valid.replace('/jobs/job-1?', '/jobs/job-2?');
    const missing = valid.replace(/\?.*$/, '');
    // Signed as the bot would, for a job no longer recorded (retired).
    const retired = linksAt(Date.now()).url('job-999', nonce)!;

    // The test derives the key as the bot does: a fresh link of its own opens the page.
    expect((await fetch(valid)).status).toBe(200);
    for (const [url, expected, said] of [
      [tampered, 403, 'This job page link is not valid'],
      [expired, 403, 'This job page link has expired'],
      [otherJob, 403, 'This job page link is not valid'],
      [earlierJob, 403, 'This job is no longer recorded'],
      [retired, 404, 'This job is no longer recorded'],
      [missing, 401, 'This job page link is incomplete'],
    ] as const) {
      const { page, status } = await chromium.open(url);
      expect(status, url).toBe(expected);
      // What happened and what to do, in words: nothing of the job (nor of the job-1 there now).
      const shown = await page.evaluate(() => ({
        title: document.querySelector('h1')?.textContent,
        text: document.body.textContent ?? '',
      }));
      expect(shown.title, url).toBe(said);
      if (said === 'This job is no longer recorded') {
        expect(shown.text, url).toMatch(
          /Where its record is now\s+No new link opens it again\. Its thread in Slack/,
        );
      } else {
        expect(shown.text, url).toMatch(/How to get a new link\s+Type \/cluster jobs in Slack/);
        expect(shown.text, url).toContain("Or open the job's thread in Slack");
      }
      expect(await jobDataIn(page), url).toEqual([]);
      await page.close();
      for (const part of ['/data', '/log']) {
        const response = await fetch(url.replace(/(\/jobs\/job-\d+)/, `$1${part}`));
        expect(response.status, `${part} ${url}`).toBe(expected);
        expect(await response.text()).toBe('');
      }
    }
    const page = await fetch(valid);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a cilium job: the approval listed with who approved when and the preview they saw, its wait shaded, the preview gap labelled, each agent Ready', async () => {
    const { slack, driver } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await slack.waitFor(
      () =>
        slack
          .allMessages('C0OPS')
          .find((m) => m.thread_ts !== undefined && m.text.includes('approval needed for cilium.yml')),
      { timeoutMs: 60_000, description: 'the approval request' },
    );
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    const board = await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('cilium dev') && m.text.includes('succeeded')),
      { timeoutMs: 90_000, description: 'the cilium job succeeded' },
    );
    const { page } = await chromium.open(local(LINK.exec(board.text)![1]!.replaceAll('&amp;', '&')));
    await page.waitForFunction(() => document.body.dataset.ended === 'true', { timeout: labMs(20_000) });
    await page.waitForFunction(
      () => document.querySelector('#facts')?.getAttribute('data-status') === 'succeeded',
      {
        timeout: labMs(5_000),
      },
    );
    const waits = await page.$$eval('#timeline rect.wait title', (titles) =>
      titles.map((t) => t.textContent),
    );
    expect(waits).toEqual([
      expect.stringMatching(/^approval approved by bob \(U0BOB\) at \d\d:\d\d:\d\d UTC/),
    ]);
    const decidedAt = /at (\d\d:\d\d:\d\d UTC)/.exec(waits[0]!)![1];
    // The approval in full, not only the hover: who approved when, and what they were shown.
    const approvals = await page.$$eval('#approvals > li', (items) =>
      items.map((item) => ({
        title: item.querySelector('h3')?.textContent,
        when: [...item.querySelectorAll('.approval-when li')].map((li) => li.textContent),
        shown: Object.fromEntries(
          [...item.querySelectorAll('dl dt')].map((dt) => [
            dt.textContent,
            dt.nextElementSibling?.textContent,
          ]),
        ),
        preview: item.querySelector('.preview')?.textContent ?? '',
      })),
    );
    expect(approvals).toHaveLength(1);
    const [approval] = approvals;
    expect(approval!.title).toBe('cilium.yml on dev: approved');
    expect(approval!.when).toEqual([
      expect.stringMatching(/^asked at \d\d:\d\d:\d\d UTC$/),
      `approved by bob (U0BOB) at ${decidedAt}`,
      expect.stringMatching(/^waited \d+(?:ms|s|m\d\ds)$/),
    ]);
    // The same request the approver read in Slack: its command line, fingerprint and preview's hosts.
    const asked = (request.blocks ?? [])
      .map((block) => (block as { text?: { text?: string } }).text?.text ?? '')
      .join('\n');
    const runs = /\*Runs:\* `([^`]+)`/.exec(asked)![1]!;
    const fingerprint = /Fingerprint `([^`]+)`/.exec(asked)![1]!;
    expect(approval!.shown.Runs).toBe(
      runs.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>'),
    );
    expect(approval!.shown.Fingerprint).toBe(fingerprint);
    expect(approval!.shown['Infra repo commit']).toMatch(/^[0-9a-f]{12,40}$/);
    const previewLine = /\*Check-mode preview:\* (.*)/.exec(asked)![1]!;
    expect(approval!.preview).toContain('Check-mode preview');
    for (const host of previewLine.matchAll(/(k3s-dev-\d): /g))
      expect(approval!.preview).toContain(`${host[1]}: `);
    // Before the step's wait, the check-mode preview that the request showed ran: the gap says so.
    const gaps = await page.$$eval('#timeline g.step', (groups) =>
      groups.flatMap((g) =>
        [...g.querySelectorAll('g.gap')].map((gap) => ({
          step: g.querySelector('text')?.textContent ?? '',
          label: gap.querySelector('text.gap-label')?.textContent,
          title: gap.querySelector('title')?.textContent ?? '',
        })),
      ),
    );
    const preview = gaps.find((gap) => gap.step.includes('cilium.yml'));
    expect(preview?.title).toMatch(/check-mode preview: \d+s, \d\d:\d\d:\d\d UTC to \d\d:\d\d:\d\d UTC$/);
    expect(preview?.label).toMatch(/(?:check-mode preview )?\d+s$/);
    const facts = await page.$eval('#facts', (dl) => dl.textContent ?? '');
    expect(facts).toMatch(/Infra repo commit[0-9a-f]{12}/);
    const agents = await page.$$eval('#cilium tbody tr', (rows) =>
      rows.map((row) => [...row.children].map((cell) => cell.textContent)),
    );
    // Every node's agent, from the revision it ran before the playbook to the one the rollout brought.
    expect(agents.map((cells) => cells[0]).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    const revisions = agents.map((cells) => /^(\S+) → (\S+)$/.exec(cells[2] ?? ''));
    expect(revisions.every((match) => match && match[1] !== match[2])).toBe(true);
    expect(new Set(revisions.map((match) => match?.[2])).size).toBe(1);
    expect(agents.every((cells) => cells[3] === 'Ready')).toBe(true);

    // Every page view and reload of this file named its people, each looked up in Slack once.
    const looked = lab.slack.calls
      .filter((call) => call.method === 'users.info')
      .map((call) => call.args.user);
    expect([...looked].sort()).toEqual(['U0ALICE', 'U0BOB']);

    if (process.env.JOB_PAGE_SCREENSHOT) {
      await page.screenshot({ path: process.env.JOB_PAGE_SCREENSHOT as `${string}.png`, fullPage: false });
    }
    await page.close();
  });

  it('a failed job: its step is marked failed, and "failed tasks only" shows just the failure', async () => {
    const { slack, driver } = lab;
    await lab.setLab({
      lab_fail: [{ task: 'Install base packages', host: 'k3s-dev-2', msg: 'apt is broken' }],
    });
    await driver.slash('packages k3s-dev-2', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const board = await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('packages k3s-dev-2') && m.text.includes('failed')),
      { timeoutMs: 60_000, description: 'the failed packages job' },
    );
    const { page } = await chromium.open(local(LINK.exec(board.text)![1]!.replaceAll('&amp;', '&')));
    await page.waitForFunction(() => document.body.dataset.ended === 'true', { timeout: labMs(20_000) });
    await page.waitForFunction(() => document.querySelector('#timeline g.step.failed') !== null, {
      timeout: labMs(5_000),
    });
    expect(await page.$eval('#timeline g.step.failed', (g) => g.textContent)).toContain('✗ failed');

    await page.select('#filter', 'failed');
    await page.waitForFunction(
      () => !document.querySelector('#log-rows .row')?.textContent?.startsWith('#'),
      {
        timeout: labMs(5_000),
      },
    );
    const shown = await page.$$eval('#log-rows .row', (rows) => rows.map((row) => row.textContent ?? ''));
    expect(shown[0]).toMatch(/^TASK \[.*Install base packages/);
    expect(shown.some((line) => /^fatal: \[k3s-dev-2\]: FAILED!.*apt is broken/.test(line))).toBe(true);
    expect(shown.every((line) => /^TASK \[|^fatal:|^failed:|failed=[1-9]/.test(line))).toBe(true);
    const recap = await page.$$eval('#recap tbody tr', (rows) =>
      rows.map((row) => [...row.children].map((cell) => cell.textContent)),
    );
    expect(recap.find((cells) => cells[0] === 'k3s-dev-2')?.[4]).toBe('1');
    await page.close();
  });
});
