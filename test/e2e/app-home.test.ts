import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeViewRecord } from '../lab/fake-slack/index.js';
import { renderBlocksHtml } from '../lab/fake-slack/render-blocks-html.js';
import { homeShowing, homeText } from '../support/home-showing.js';
import { labMs } from '../support/lab-time.js';
import { startBrowser } from '../support/start-browser.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

/** Never dialled: the Home only shows links under it. */
const PUBLIC_URL = 'https://cluster-bot.example.test/ops';

let lab: SlackLab;
beforeAll(async () => {
  // A bot process taking Slack requests and a separate worker: the Home is refreshed from state
  // another process changes.
  lab = await startSlackLab({ workers: 1, env: { PUBLIC_URL } });
}, labMs(120_000));
afterAll(() => lab?.stop());

/** The App Home picture in docs/operators.md: the view as the fake Slack draws it, in the tests' browser. */
async function screenshot(view: HomeViewRecord, path: string) {
  const { browser } = await startBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 820, height: 640 });
    await page.setContent(renderBlocksHtml('Home', view.blocks));
    await page.screenshot({ path: path as `${string}.png`, fullPage: true });
  } finally {
    await browser.close();
  }
}

const buttons = (view: HomeViewRecord) => JSON.stringify(view.blocks).match(/"type":"button"/g)?.length ?? 0;

describe('the App Home, against the real bot and worker processes', { timeout: labMs(240_000) }, () => {
  it('shows both clusters, the job holding dev while it waits for approval, and refreshes when it is approved', async () => {
    const { slack, driver } = lab;
    await driver.homeOpened('U0BOB');
    const first = await homeShowing(slack, 'U0BOB', /^dev\n[\s\S]*\*Lease:\* free[\s\S]*^prod\n/m, 15_000);
    expect(buttons(first)).toBe(2);
    expect(homeText(first)).toContain(
      'Verify now runs `verify dev` as you, with your rights; its thread goes to <#C0OPS>.',
    );

    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const waiting = await homeShowing(
      slack,
      'U0BOB',
      // Once the request is in the thread: the Home links it and offers its own buttons.
      /\*Lease:\* job #1 \(cilium dev\) by <@U0ALICE>, step \d\/\d \(waiting for approval\)[\s\S]*\|Open the request in its thread>/,
    );
    expect(buttons(waiting)).toBe(4);
    expect(homeText(waiting)).toMatch(
      /\*Waiting for approval:\* job #1 at cilium\.yml \(1 needed; approvers: <@U0ALICE>, <@U0BOB>\)\. You may approve or reject it/,
    );
    expect(homeText(waiting)).toMatch(/^prod\n\*Lease:\* free/m);
    // The job holding dev links to its page (signed, under PUBLIC_URL).
    expect(homeText(waiting)).toMatch(
      new RegExp(`<${PUBLIC_URL}/jobs/job-1\\?n=[\\w-]{22}&(amp;)?exp=\\d+&(amp;)?mac=[\\w-]+\\|job page>`),
    );
    if (process.env.APP_HOME_SCREENSHOT) await screenshot(waiting, process.env.APP_HOME_SCREENSHOT);

    // Nothing changes while the job waits: no publish for two refresh rounds (3 s each).
    const publishedWhileWaiting = slack.homeViews('U0BOB').length;
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expect(slack.homeViews('U0BOB')).toHaveLength(publishedWhileWaiting);

    const request = slack
      .allMessages('C0OPS')
      .find((m) => m.text.includes('approval needed for cilium.yml'))!;
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    const approved = await homeShowing(
      slack,
      'U0BOB',
      /^dev\n\*Lease:\* (free|job #1 \(cilium dev\) by <@U0ALICE>, step \d\/\d,)/m,
    );
    expect(homeText(approved)).not.toContain('Waiting for approval');
    await homeShowing(slack, 'U0BOB', /^dev\n\*Lease:\* free/m);

    // Every publish showed something new: a view is never published twice in a row unchanged.
    const views = slack.homeViews('U0BOB').map((view) => JSON.stringify(view.blocks));
    expect(views.filter((view, index) => index > 0 && view === views[index - 1])).toEqual([]);
    expect(slack.rateLimitedCount('views.publish')).toBe(0);
  });

  it('"Verify now" runs verify as the clicker, its thread in the command channel', async () => {
    const { slack, driver } = lab;
    const click = await driver.clickHome({ userId: 'U0BOB', button: { text: 'Verify now' }, index: 0 });
    await homeShowing(slack, 'U0BOB', /\*Verify now \(dev\):\* Queued as job #\d+: `verify dev`/, 15_000);
    const verifyBoards = () =>
      slack.messages('C0OPS').filter((m) => m.text.includes('*verify dev*') && m.text.includes('<@U0BOB>'));
    await slack.waitFor(() => verifyBoards().length > 0 || undefined, {
      timeoutMs: 60_000,
      description: 'the verify board in C0OPS',
    });
    // Slack delivering the same click again (a retry) runs nothing more: no second job, no second answer.
    expect((await driver.resend({ ...click, responseUrl: '' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const answers = new Set(
      slack.homeViews('U0BOB').flatMap((view) => homeText(view).match(/Verify now \(dev\):\* [^\n]*/g) ?? []),
    );
    expect([...answers]).toEqual([expect.stringMatching(/Queued as job #\d+: `verify dev`/)]);
    expect(verifyBoards()).toHaveLength(1);
  });

  it('someone who is not an operator sees no cluster data, and a forged "Verify now" click changes nothing', async () => {
    const { slack, driver } = lab;
    await driver.homeOpened('U0MALLORY');
    const refused = await homeShowing(slack, 'U0MALLORY', /not an operator/, 15_000);
    expect(homeText(refused)).not.toMatch(/dev|prod|Lease/);
    expect(buttons(refused)).toBe(0);

    const boardsBefore = slack.messages('C0OPS').length;
    await driver.clickHome({ userId: 'U0MALLORY', buttonFrom: 'U0BOB', button: { text: 'Verify now' } });
    const notice = await homeShowing(
      slack,
      'U0MALLORY',
      /Verify now \(dev\):\* ⛔ .*not an operator.*nothing was run/,
      15_000,
    );
    expect(homeText(notice)).not.toContain('Lease');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(slack.messages('C0OPS')).toHaveLength(boardsBefore);
  });
});
