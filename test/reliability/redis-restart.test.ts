import { describe, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { labMs } from '../support/lab-time.js';
import { startOwnRedis } from '../support/start-own-redis.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

const cleanups = cleanupAfterEach();

describe('Redis restarted under the bot', { timeout: labMs(180_000) }, () => {
  it('bot and worker reconnect: the running job finishes and new commands run', async () => {
    const redis = await startOwnRedis();
    cleanups.push(() => redis.close());
    const lab: SlackLab = await startSlackLab({
      env: { REDIS_URL: redis.url },
      labVars: { lab_sleep_seconds: 4 },
    });
    cleanups.push(() => lab.stop());
    const { slack, driver } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const root = await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('⏳')), {
      timeoutMs: 30_000,
    });
    await redis.restart();
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 90_000,
      description: 'the job running across the restart finished',
    });
    await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('*verify dev* · job #2') && m.text.includes('succeeded')),
      { timeoutMs: 60_000, description: 'a new command after the restart' },
    );
  });
});
