import { describe, expect, it } from 'vitest';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import type { JobThread } from '../../src/jobs/ports/job-thread.js';
import { createMemoryDelivery } from '../support/memory-delivery.js';

interface Sent {
  readonly call: 'post' | 'update' | 'upload';
  readonly text: string;
  readonly threadTs?: string | undefined;
}

/** A Slack that answers each call only when the test says so, recording what arrived in which order. */
function heldPoster(options: { failUpload?: boolean } = {}) {
  const sent: Sent[] = [];
  const held: (() => void)[] = [];
  let ts = 0;
  const arrive = async <T>(entry: Sent, value: T): Promise<T> => {
    await new Promise<void>((resolve) => held.push(resolve));
    sent.push(entry);
    return value;
  };
  const poster: SlackPoster = {
    post: (m) => arrive({ call: 'post', text: m.text, threadTs: m.threadTs }, `100.${++ts}`),
    update: (m) => arrive({ call: 'update', text: m.text }, undefined),
    upload: async (file) => {
      if (options.failUpload) throw new Error('files are down');
      await arrive({ call: 'upload', text: file.comment ?? '', threadTs: file.threadTs }, undefined);
    },
    permalink: (channel, at) => `https://lab.slack.invalid/archives/${channel}/p${at}`,
  };
  return {
    poster,
    sent,
    /** Lets every call made so far (and those they lead to) through. */
    async release() {
      for (let round = 0; round < 50; round++) {
        await new Promise((resolve) => setImmediate(resolve));
        for (const answer of held.splice(0)) answer();
      }
    },
  };
}

function reporterWith(poster: SlackPoster, updateIntervalMs = 60_000) {
  const thread: JobThread = {
    jobId: 'job-7',
    channel: 'C0OPS',
    alertsChannel: 'C0ALERTS',
    cluster: 'dev',
    threadTs: undefined,
    opened: false,
    board: { title: 'verify dev', jobNumber: 7, requestedBy: 'U0ALICE', steps: [] },
  };
  const log: string[] = [];
  const { delivery, saved, messages } = createMemoryDelivery(poster, async () => log.join('\n'));
  const reporter = createThreadReporter({
    delivery,
    thread,
    appendLog: (line) => {
      log.push(line);
    },
    updateIntervalMs,
  });
  return { reporter, saved, messages };
}

const step = { id: '1-verify', title: 'verify gates', target: 'dev', disruptive: false };

describe('thread reporter', () => {
  it('never makes the job wait for Slack, and Slack still sees every message in order', async () => {
    const slack = heldPoster();
    const { reporter, saved, messages } = reporterWith(slack.poster);

    await reporter.emit({ type: 'plan-started', steps: [step], resumed: false });
    await reporter.emit({ type: 'step-started', stepId: '1-verify' });
    await reporter.output('1-verify', 'first line');
    await reporter.emit({
      type: 'step-finished',
      stepId: '1-verify',
      status: 'succeeded',
      durationMs: 1200,
      summary: '3 nodes Ready',
    });
    await reporter.emit({ type: 'plan-finished', outcome: 'succeeded', summary: 'its one step done' });
    expect(slack.sent).toEqual([]); // nothing answered yet, and the engine has gone on regardless

    const delivered = reporter.delivered();
    await slack.release();
    await delivered;
    expect(slack.sent.map((s) => [s.call, s.text.split('\n')[0]])).toEqual([
      ['post', expect.stringContaining('verify dev')],
      ['post', '```first line```'],
      ['post', '✅ verify gates (1s): 3 nodes Ready'],
      ['update', expect.stringContaining('verify dev')],
      ['upload', '✅ job #7 succeeded: its one step done'],
    ]);
    expect(slack.sent.slice(1).every((s) => s.call === 'update' || s.threadTs === '100.1')).toBe(true);
    // Saved with its root message queued, and the root's ts kept as it was sent, so a resumed job finds its thread.
    expect(saved.at(-1)?.opened).toBe(true);
    expect(await messages.get('job-7', 'root')).toBe('100.1');
  });

  it('keeps a notice sent before the thread exists and posts it under the root message', async () => {
    const slack = heldPoster();
    const { reporter } = reporterWith(slack.poster);

    // A cancel noticed as the worker takes the job up, before the plan has started.
    await reporter.notice('🛑 cancelled by <@U0BOB>');
    await reporter.emit({ type: 'plan-started', steps: [step], resumed: false });
    await reporter.emit({
      type: 'plan-finished',
      outcome: 'cancelled',
      summary: 'cancelled before this step',
    });
    const delivered = reporter.delivered();
    await slack.release();
    await delivered;
    expect(slack.sent.map((s) => [s.call, s.text.split('\n')[0], s.threadTs])).toEqual([
      ['post', expect.stringContaining('verify dev'), undefined],
      ['post', '🛑 cancelled by <@U0BOB>', '100.1'],
      ['update', expect.stringContaining('verify dev'), undefined],
      ['upload', '❌ job #7 cancelled: cancelled before this step', '100.1'],
      // Under the outcome of a cancelled job: the offer to re-run it from where it stopped.
      [
        'post',
        expect.stringMatching(
          /^🔁 Re-run `\/cluster verify dev`\? .*`\/cluster rerun 7`.*verify always runs whole/,
        ),
        '100.1',
      ],
    ]);
  });

  it('coalesces live output into one edit per interval', async () => {
    const slack = heldPoster();
    const { reporter } = reporterWith(slack.poster, 20);
    await reporter.emit({ type: 'plan-started', steps: [step], resumed: false });
    await reporter.emit({ type: 'step-started', stepId: '1-verify' });
    const flushing = (async () => {
      for (let i = 1; i <= 1000; i++) await reporter.output('1-verify', `line ${i}`);
    })();
    await slack.release();
    await flushing;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await slack.release();
    const delivered = reporter.delivered();
    await slack.release();
    await delivered;
    expect(slack.sent.length).toBeLessThan(10);
    expect(slack.sent.at(-1)?.text).toContain('line 1000');
  });

  it('while Slack is slow, a backlog of board and tail edits leaves as the latest of each', async () => {
    const slack = heldPoster();
    const { reporter } = reporterWith(slack.poster, 5);
    await reporter.emit({ type: 'plan-started', steps: [step], resumed: false });
    await reporter.emit({ type: 'step-started', stepId: '1-verify' });
    // The root message is still on its way while the job goes on for many live ticks.
    for (let i = 1; i <= 6; i++) {
      await reporter.emit({ type: 'step-progress', stepId: '1-verify', text: `task ${i}` });
      await reporter.output('1-verify', `line ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const delivered = reporter.delivered();
    await slack.release();
    await delivered;
    const edits = slack.sent.filter((s) => s.call === 'update');
    const boardEdits = edits.filter((s) => s.text.includes('verify dev'));
    const tailEdits = edits.filter((s) => s.text.startsWith('```'));
    // The tail is posted once (its place in the thread), then edited to its last lines.
    expect(slack.sent.filter((s) => s.call === 'post')).toHaveLength(2);
    expect(boardEdits).toHaveLength(1);
    expect(boardEdits[0]?.text).toContain('task 6');
    expect(tailEdits.length).toBeLessThanOrEqual(1);
    expect(slack.sent.filter((s) => s.text.startsWith('```')).at(-1)?.text).toContain('line 6');
  });

  it('still posts the outcome when the log upload fails', async () => {
    const slack = heldPoster({ failUpload: true });
    const { reporter } = reporterWith(slack.poster);
    await reporter.emit({ type: 'plan-started', steps: [step], resumed: false });
    await reporter.emit({ type: 'plan-finished', outcome: 'failed', summary: 'verify gates failed' });
    const delivered = reporter.delivered();
    await slack.release();
    await delivered;
    expect(slack.sent.at(-2)).toEqual({
      call: 'post',
      text: '❌ job #7 failed: verify gates failed',
      threadTs: '100.1',
    });
  });
});
