import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { followUpClaim } from '../../src/service/follow-up-claim.js';
import { startServiceOnRedis } from '../support/cluster-service-on-redis.js';
import { loadExampleWorld } from '../support/example-world.js';
import { labMs } from '../support/lab-time.js';

// The service's other cases run on its in-memory stores (cluster-service.test.ts); what its
// stores do on Redis is service-stores.lab.test.ts. Here: what only Redis's expiry shows.

const ALICE = { userId: 'U0ALICE', channelId: 'C0OPS' };
const BOB = { userId: 'U0BOB', channelId: 'C0OPS' };

let world: WorldConfig;
let t: ReturnType<typeof startServiceOnRedis>;

beforeEach(async () => {
  world = await loadExampleWorld();
  t = startServiceOnRedis(world, { groups: new Map([['S0PLATFORM', ['U0DAVE']]]), perMinute: 2 });
});
afterEach(async () => {
  await t.stop();
});

/** A job's ending as its worker writes it on the record (the rest of the ending does not matter here). */
async function endJob(jobId: string, outcome: string) {
  const record = (await t.records.get(jobId))!;
  const multi = t.redis.multi();
  t.records.queueRewrite(multi, { ...record, outcome, finishedAt: Date.now() });
  await multi.exec();
}

describe('the cluster service against Redis', { timeout: labMs(30_000) }, () => {
  it('a re-run claimed but never queued (the bot stopped between) blocks the job for a minute, not a month', async () => {
    await t.service.submit(ALICE, { verb: 'up', cluster: 'dev' }, false);
    await endJob('job-1', 'failed');
    await t.redis.del(t.keys.lease('dev'));
    // The claim a killed submit leaves: taken, never settled.
    expect(await followUpClaim(t, 'rerun', 'job-1').claim()).toBeUndefined();
    expect(await t.service.rerun(BOB, { number: '1' })).toEqual({
      code: 'RERUN_REFUSED',
      why: 'already-rerun',
      number: 1,
    });
    const lapses = await t.redis.ttl(t.keys.rerunOf('job-1'));
    expect(lapses).toBeGreaterThan(0);
    expect(lapses).toBeLessThanOrEqual(60);
    // Once it lapsed, the job is re-run; the queued re-run is then held as long as the thread is worth clicking in.
    await t.redis.del(t.keys.rerunOf('job-1'));
    expect(await t.service.rerun(BOB, { number: '1' })).toMatchObject({ kind: 'queued', number: 2 });
    expect(await t.redis.get(t.keys.rerunOf('job-1'))).toBe('job-2');
    expect(await t.redis.ttl(t.keys.rerunOf('job-1'))).toBeGreaterThan(29 * 24 * 3_600);
  });
});
