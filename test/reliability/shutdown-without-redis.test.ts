import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_ALLOWANCE_MS } from '../../src/app/shutdown-deadlines.js';
import { deliveryKeys } from '../../src/delivery/delivery-keys.js';
import type { FakeSlack } from '../lab/fake-slack/index.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { homeShowing } from '../support/home-showing.js';
import { labMs } from '../support/lab-time.js';
import type { BotProcess } from '../support/start-bot-process.js';
import { startOwnRedis } from '../support/start-own-redis.js';
import { type SlackLabOptions, startSlackLab } from '../support/start-slack-lab.js';
import { waitFor } from '../support/wait-for.js';

const cleanups = cleanupAfterEach();
const GRACE_SECONDS = 1;

/** The lab on a redis-server of the test's own, which the test pauses. */
async function startOnOwnRedis(options: SlackLabOptions = {}) {
  const redis = await startOwnRedis();
  cleanups.push(() => redis.close());
  const lab = await startSlackLab({
    ...options,
    env: { REDIS_URL: redis.url, SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) },
  });
  cleanups.push(() => lab.stop());
  return { redis, lab };
}

/** Holds every call of a Slack method unanswered until the test ends. */
function holdSlackCalls(slack: FakeSlack, method: string) {
  const held = slack.holdCalls(method);
  cleanups.push(() => held.release());
  return held;
}

/**
 * SIGTERM, then the process's exit code, or 'still running' once the grace and the allowance are
 * over (stretched by the lab's time scale, with a margin for a loaded machine).
 */
async function terminate(bot: BotProcess): Promise<number | null | 'still running'> {
  bot.child.kill('SIGTERM');
  return Promise.race([
    bot.exited,
    sleep(labMs(GRACE_SECONDS * 1_000 + SHUTDOWN_ALLOWANCE_MS + 10_000), 'still running' as const),
  ]);
}

describe('SIGTERM while Redis does not answer', { timeout: labMs(120_000) }, () => {
  it('the process exits, saying which outbox lease it left to lapse; the thread stays in Redis for another process', async () => {
    const { redis, lab } = await startOnOwnRedis();
    const { driver, bot } = lab;
    // Slack takes its time: the job's thread is mid-send, its outbox claimed by the bot, when Redis hangs.
    const posts = holdSlackCalls(lab.slack, 'chat.postMessage');
    await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await waitFor('the job’s first post on the wire', () => posts.arrived > 0, { timeoutMs: 30_000 });
    redis.pause();
    expect(await terminate(bot)).toBe(0);
    expect(bot.output()).toMatch(
      /"jobId":"job-1".*"msg":"outbox: job job-1's lease not released \(Redis did not answer\)/,
    );
    // Nothing lost: the outbox keeps what was not sent, where another process's scan finds it.
    redis.resume();
    const keys = deliveryKeys(lab.processEnv.REDIS_PREFIX ?? '');
    const reader = new Redis(redis.url);
    cleanups.push(() => reader.disconnect());
    expect(await reader.llen(keys.outbox('job-1'))).toBeGreaterThan(0);
    expect(await reader.smembers(keys.outboxes)).toContain('job-1');
  });

  it('a process taking Slack requests exits though its App Home round waits on Slack, saying it left the round', async () => {
    const { redis, lab } = await startOnOwnRedis({ workers: 1 });
    const { slack, driver, bot } = lab;
    await driver.homeOpened('U0BOB');
    await homeShowing(slack, 'U0BOB', /^dev\n[\s\S]*\*Lease:\* free/m, 15_000);
    // A job changes what the Home shows: the next round publishes it, and Slack does not answer.
    const publishes = holdSlackCalls(lab.slack, 'views.publish');
    await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await waitFor('a round’s publish on the wire', () => publishes.arrived > 0, { timeoutMs: 30_000 });
    redis.pause();
    const exit = await terminate(bot);
    redis.resume();
    expect(exit).toBe(0);
    expect(bot.output()).toContain('"msg":"App Home refresh round not finished (Slack did not answer)');
  });
});
