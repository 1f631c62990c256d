import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import type { BotProcess } from '../support/start-bot-process.js';
import { QUICK_STALL_ENV, type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const started = (worker: BotProcess) => (worker.output().match(/"msg":"job started"/g) ?? []).length;

async function startLongJob(signal: 'SIGTERM' | 'SIGKILL') {
  lab = await startSlackLab({
    workers: 2,
    labVars: { lab_sleep_seconds: 6 },
    env: { SHUTDOWN_GRACE_SECONDS: '1', ...QUICK_STALL_ENV },
  });
  const { slack, driver, workers } = lab;
  await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
  const first = await slack.waitFor(() => workers.find((w) => started(w) > 0), { timeoutMs: 30_000 });
  const other = workers.find((w) => w !== first)!;
  const root = await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('⏳')), {
    timeoutMs: 30_000,
  });
  first.child.kill(signal);
  const code = await first.exited;
  return { slack, first, other, root, code };
}

// A stalled job is noticed by BullMQ within lockDuration + stalledInterval (QUICK_STALL_ENV: 15 s).
describe('several workers on one Redis', { timeout: labMs(180_000) }, () => {
  it('SIGTERM mid-playbook: the worker exits 0 after its grace period and another worker finishes the job', async () => {
    const { slack, other, root, code } = await startLongJob('SIGTERM');
    expect(code).toBe(0);
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 120_000,
      description: 'the job finished by the other worker',
    });
    expect(started(other)).toBe(1);
    const thread = slack
      .replies('C0OPS', root.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toContain('was interrupted (the worker stopped); running it again');
  });

  it('SIGKILL mid-playbook: the job goes stalled, another worker resumes it, no job runs twice at once', async () => {
    const { slack, other, root } = await startLongJob('SIGKILL');
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 120_000,
      description: 'the job finished by the other worker',
    });
    expect(started(other)).toBe(1);
    expect(slack.messages('C0OPS')).toHaveLength(1);
  });
});
