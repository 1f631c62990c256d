import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createSlackGateAlerts } from '../../src/bot/create-slack-gate-alerts.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { remindFluxSuspended } from '../../src/jobs/remind-flux-suspended.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { createRecordingPoster } from '../support/recording-poster.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const cleanups = cleanupAfterEach();

describe('the hourly reminder of a Flux left suspended', () => {
  it('posts to the alerts channel while a failed job’s suspension stands, and nothing once it is cleared', async () => {
    const { prefix, cleanup } = uniquePrefix('flux-reminder');
    const redis = new Redis(REDIS_URL);
    cleanups.push(cleanup, async () => redis.disconnect());
    const keys = redisKeys(prefix);
    const { poster, posts } = createRecordingPoster();
    const alerts = createSlackGateAlerts(poster, 'C0ALERTS');

    expect(await remindFluxSuspended('dev', { redis, keys, alerts })).toBe('flux not suspended');
    await redis.set(
      keys.fluxSuspended('dev'),
      JSON.stringify({ jobNumber: 7, jobId: 'job-7', at: Date.UTC(2026, 10, 30, 21, 0), outcome: 'failed' }),
    );
    expect(await remindFluxSuspended('dev', { redis, keys, alerts })).toBe('reminded');
    // A rollback that went well left it so on purpose, and says why.
    await redis.set(
      keys.fluxSuspended('dev'),
      JSON.stringify({
        jobNumber: 8,
        jobId: 'job-8',
        at: Date.UTC(2026, 10, 30, 22, 0),
        outcome: 'succeeded',
        reason: 'rolled back; fix the repo, then `/cluster cilium dev --resume-flux`',
      }),
    );
    expect(await remindFluxSuspended('dev', { redis, keys, alerts })).toBe('reminded');
    await redis.del(keys.fluxSuspended('dev'));
    expect(await remindFluxSuspended('dev', { redis, keys, alerts })).toBe('flux not suspended');
    expect(posts).toEqual([
      {
        channel: 'C0ALERTS',
        text:
          "⏸ dev: Flux's HelmRelease kube-system/cilium is still suspended (job #7 failed at 2026-11-30 21:00 UTC and left it so): " +
          'Flux does not reconcile Cilium. Once Cilium is sound: `/cluster cilium dev --resume-flux`',
      },
      {
        channel: 'C0ALERTS',
        text:
          "⏸ dev: Flux's HelmRelease kube-system/cilium is still suspended (job #8 succeeded at 2026-11-30 22:00 UTC and left it so): " +
          'Flux does not reconcile Cilium: rolled back; fix the repo, then `/cluster cilium dev --resume-flux`',
      },
    ]);
  });
});
