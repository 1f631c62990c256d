import { describe, expect, it } from 'vitest';
import { describeRequest } from '../../src/bot/create-slack-announcer.js';
import { createSlackGateAlerts } from '../../src/bot/create-slack-gate-alerts.js';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { renderBoard } from '../../src/bot/render-board.js';
import { renderHome } from '../../src/bot/render-home.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createConsolePoster } from '../../src/console/create-console-poster.js';
import { finishForTerminal, terminalMarks } from '../../src/console/terminal-marks.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import type { HomeAnswer } from '../../src/service/index.js';
import { describeHome } from '../../src/wording/describe-home.js';
import { describeStatus } from '../../src/wording/describe-status.js';
import { homeCluster } from '../support/home-cluster.js';
import { createMemoryDelivery } from '../support/memory-delivery.js';
import { createRecordingPoster } from '../support/recording-poster.js';

const HOSTILE = '<!channel> see <http://evil.example|the runbook> & <!here>';
const ESCAPED = '&lt;!channel&gt; see &lt;http://evil.example|the runbook&gt; &amp; &lt;!here&gt;';
const LIVE = /<!channel>|<!here>|<http:\/\/evil/;

const AT = Date.UTC(2026, 11, 1, 22, 0);

/** A cluster whose every remote field (verify summary, Flux's reason, an alert, a step title) is hostile. */
const hostileDev = homeCluster('dev', {
  lastVerify: { outcome: 'failed', at: AT, jobNumber: 0, summary: `nodes Ready: ${HOSTILE}` },
  fluxSuspended: { jobNumber: 3, jobId: 'job-3', at: AT, outcome: 'failed', reason: HOSTILE },
  alerts: [{ gate: 'nodes Ready', observed: HOSTILE, alertedAt: AT }],
  approvals: [
    {
      jobId: 'job-3',
      stepId: 's',
      approvalId: 'a',
      stepTitle: HOSTILE,
      approvals: [],
      required: 1,
      mayApprove: false,
      mayReject: false,
      runs: { commandLine: HOSTILE, targets: 'dev' },
    },
  ],
});
const hostileHome: HomeAnswer = { kind: 'home', clusters: [hostileDev] };

describe('remote text in mrkdwn, on every path the bot posts', () => {
  it('the board shows a hostile step detail and summary as text', () => {
    const board = renderBoard({
      title: 'verify dev',
      jobNumber: 1,
      requestedBy: 'U0ALICE',
      outcome: 'failed',
      summary: HOSTILE,
      steps: [
        {
          id: '1-verify',
          title: 'verify gates',
          target: 'dev',
          disruptive: false,
          status: 'failed',
          detail: HOSTILE,
        },
      ],
    });
    const text = `${board.text}\n${JSON.stringify(board.blocks)}`;
    expect(text).not.toMatch(LIVE);
    expect(board.text).toContain(ESCAPED);
  });

  it('a scheduled alert (failing gate, drift, Flux left suspended) shows what it observed as text', async () => {
    const { poster, texts } = createRecordingPoster();
    const alerts = createSlackGateAlerts(poster, 'C0ALERTS');
    await alerts.failing('dev', 'nodes Ready', HOSTILE, false);
    await alerts.failing('dev', 'nodes Ready', HOSTILE, true);
    await alerts.driftFound('dev', 'Cilium drift', HOSTILE, false);
    await alerts.fluxStillSuspended('dev', { jobNumber: 3, at: AT, outcome: 'succeeded', reason: HOSTILE });
    expect(texts()).toHaveLength(4);
    for (const text of texts()) {
      expect(text).not.toMatch(LIVE);
      expect(text).toContain(ESCAPED);
    }
  });

  it("`status` shows a last verify's summary and Flux's reason as text", () => {
    const text = describeStatus([hostileDev], MRKDWN);
    expect(text).not.toMatch(LIVE);
    expect(text).toContain(`nodes Ready: ${ESCAPED}`);
    expect(text).toContain(`UTC: ${ESCAPED}`);
  });

  it("the App Home shows a verify summary, an alert, Flux's reason and a step title as text", () => {
    const view = JSON.stringify(
      renderHome(hostileHome, { jobPageUrl: () => undefined, verifyChannel: () => 'C0OPS' }).blocks,
    );
    expect(view).not.toMatch(LIVE);
    expect(view).toContain(`nodes Ready: ${ESCAPED}`);
    expect(view).toContain(`job #3 at ${ESCAPED}`);
  });

  it('the console prints hostile text as it was typed: no link made of it, no terminal escape obeyed', async () => {
    const home = finishForTerminal(
      describeHome(hostileHome, () => undefined, terminalMarks({ tty: true })),
      {
        tty: true,
      },
    );
    expect(home).toContain(`nodes Ready: ${HOSTILE}`);
    expect(home).not.toContain('the runbook (http://evil.example)');
    const printed: string[] = [];
    const { poster } = createConsolePoster((text) => printed.push(`${text}\n`), createRedactor(), {
      tty: false,
    });
    await poster.post({
      channel: 'C0OPS',
      threadTs: '1.0',
      text: 'ℹ️ agent says \u001b[2J\u001b]0;owned\u0007 done',
    });
    expect(printed.join('')).toBe('  ↳ ℹ️ agent says \\x1b[2J\\x1b]0;owned\\x07 done\n');
  });

  it('an approval request shows a hostile diff, task name and warning as text', () => {
    const text = describeRequest(
      {
        stepId: 'cilium',
        stepTitle: 'cilium.yml',
        cluster: 'dev',
        reason: 'rolls the CNI',
        warning: HOSTILE,
        binding: {
          commandLine: 'ansible-playbook playbooks/cilium.yml',
          targets: 'k3s-dev-1',
          fingerprint: 'abc',
          preview: { ran: true, changedTasks: { 'k3s-dev-1': [HOSTILE] }, diffExcerpt: `+ ${HOSTILE}` },
        },
      },
      60_000,
    );
    expect(text).not.toMatch(LIVE);
    expect(text).toContain(ESCAPED);
  });

  it("a failed gate's observation goes to the alerts channel escaped, beside the bot's own live link", async () => {
    const posts: { channel: string; text: string }[] = [];
    const poster: SlackPoster = {
      post: async (m) => {
        posts.push(m);
        return `100.${posts.length}`;
      },
      update: async () => undefined,
      upload: async () => undefined,
      permalink: (channel, ts) => `https://lab.slack.invalid/archives/${channel}/p${ts}`,
    };
    const { delivery, messages } = createMemoryDelivery(poster);
    await messages.record('job-1', 'root', '100.0');
    const reporter = createThreadReporter({
      delivery,
      thread: {
        jobId: 'job-1',
        channel: 'C0OPS',
        alertsChannel: 'C0ALERTS',
        cluster: 'dev',
        threadTs: '100.0',
        opened: true,
        board: { title: 'verify dev', jobNumber: 1, requestedBy: 'U0ALICE', steps: [] },
      },
      appendLog: () => undefined,
    });
    await reporter.emit({
      type: 'gate-failed',
      stepId: 'verify',
      cluster: 'dev',
      gate: 'nodes Ready',
      observed: HOSTILE,
    });
    await reporter.emit({ type: 'note', text: HOSTILE });
    await reporter.notice('🛑 cancelled by <@U0BOB>');
    await reporter.delivered();
    const alert = posts.find((p) => p.channel === 'C0ALERTS')!;
    expect(alert.text).toContain(ESCAPED);
    expect(alert.text).toContain('<https://lab.slack.invalid/archives/C0OPS/p100.0|job #1 thread>');
    expect(posts.map((p) => p.text).join('\n')).not.toMatch(LIVE);
    expect(posts.at(-1)?.text).toBe('🛑 cancelled by <@U0BOB>');
  });
});
