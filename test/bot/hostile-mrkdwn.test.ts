import { describe, expect, it } from 'vitest';
import { describeRequest } from '../../src/bot/create-slack-announcer.js';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createMemoryThreadOutbox } from '../support/memory-thread-outbox.js';

const HOSTILE = '<!channel> see <http://evil.example|the runbook> & <!here>';
const ESCAPED = '&lt;!channel&gt; see &lt;http://evil.example|the runbook&gt; &amp; &lt;!here&gt;';
const LIVE = /<!channel>|<!here>|<http:\/\/evil/;

describe('remote text in mrkdwn', () => {
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
    const { outbox, messages } = createMemoryThreadOutbox(poster);
    await messages.set('job-1', 'root', '100.0');
    const reporter = createThreadReporter({
      outbox,
      logger: createLogger({ level: 'silent', redact: createRedactor() }),
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
