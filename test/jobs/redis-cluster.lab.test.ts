import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/app/connect-redis.js';
import { readEnv } from '../../src/config/read-env.js';
import { createRedisRateBudget } from '../../src/delivery/create-redis-rate-budget.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { type RedisCluster, startRedisCluster } from '../lab/start-redis-cluster.js';
import { healthyHosts } from '../support/healthy-hosts.js';
import { labMs } from '../support/lab-time.js';
import { type InProcessWorker, startInProcessWorker } from '../support/start-in-process-worker.js';
import { waitFor } from '../support/wait-for.js';

const PACKAGES_PROD: LifecycleCommand = { verb: 'packages', cluster: 'prod', node: 'k3s-prod-1' };

let cluster: RedisCluster;
let lab: InProcessWorker | undefined;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, labMs(30_000));
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});
afterAll(async () => {
  await cluster?.stop();
});

/** The bot's own connection and prefix, as REDIS_CLUSTER_NODES alone gives them (a tag per test here). */
function clusterRedis() {
  const env = readEnv({
    REDIS_CLUSTER_NODES: cluster.nodes,
    REDIS_PREFIX: `{cbtest-${randomBytes(4).toString('hex')}}`,
  });
  return { connect: () => connectRedis(env), prefix: env.REDIS_PREFIX };
}

describe('on a real Redis Cluster (three masters on loopback)', { timeout: labMs(60_000) }, () => {
  it('a job takes its lease, parks for approval, is approved by two, runs, settles and is audited', async () => {
    lab = await startInProcessWorker('cluster-job', { replies: healthyHosts, redis: clusterRedis() });
    const first = await lab.queue.enqueue({
      command: PACKAGES_PROD,
      requestedBy: 'U0ALICE',
      channel: 'C0OPS',
      queueIfBusy: false,
    });
    if (first.kind !== 'queued') throw new Error('the first packages prod was refused');
    const id = first.record.id;
    // The lease: a second mutating command on prod is refused, naming the holder.
    const second = await lab.queue.enqueue({
      command: PACKAGES_PROD,
      requestedBy: 'U0BOB',
      channel: 'C0OPS',
      queueIfBusy: false,
    });
    expect(second).toMatchObject({ kind: 'busy', holderJobId: id, holder: { id } });

    lab.startWorker();
    await waitFor(`${id} parked`, async () => (await lab!.queue.queue.getJob(id))?.isDelayed(), {
      timeoutMs: 15_000,
    });
    expect(await lab.clickApproval(id, 'U0BOB')).toMatchObject({ kind: 'counted' });
    expect(await lab.clickApproval(id, 'U0CAROL')).toMatchObject({ kind: 'approved' });
    await lab.queue.promote(id);

    const outcome = await waitFor(`the outcome of ${id}`, async () => (await lab!.records.get(id))?.outcome, {
      timeoutMs: 15_000,
    });
    expect(outcome).toBe('succeeded');
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    const audited = (await lab.audit.recent(20))
      .filter((entry) => entry.jobId === id)
      .map((entry) => entry.action);
    expect(audited).toContain('outcome');
  });

  it('keeps every key of the bot and of its queue in one slot, which is what makes its transactions legal there', async () => {
    lab = await startInProcessWorker('cluster-slots', { redis: clusterRedis() });
    const { keys } = lab;
    const redis = lab.redis as Redis;
    const slotOf = async (key: string) => Number(await redis.call('CLUSTER', 'KEYSLOT', key));
    const slots = new Set(
      await Promise.all(
        [
          keys.job('job-1'),
          keys.lease('prod'),
          keys.audit,
          keys.approvals('job-1'),
          keys.rateBudget('chat.postMessage:C0OPS'),
          `${keys.bullPrefix}:cluster-jobs:wait`,
        ].map(slotOf),
      ),
    );
    expect(slots.size).toBe(1);
    // The Slack budget's script runs there too: it declares its key and reads that node's clock.
    const budget = createRedisRateBudget(redis, keys);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++)
      waits.push(await budget.take('chat.postMessage:C0OPS', { burst: 3, perSecond: 1 }));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(900);
    // Without the tag the same keys would land in different slots (and a MULTI over them fail).
    expect(await slotOf('cluster-bot:job:job-1')).not.toBe(await slotOf('cluster-bot:lock:prod'));
  });

  it('takes back a command whose job BullMQ would not take, in one transaction there too', async () => {
    lab = await startInProcessWorker('cluster-not-queued', { redis: clusterRedis() });
    lab.queue.queue.add = async () => {
      throw new Error('Connection is closed.');
    };
    const refused = lab.queue.enqueue({
      command: PACKAGES_PROD,
      requestedBy: 'U0ALICE',
      channel: 'C0OPS',
      queueIfBusy: false,
      admission: { userId: 'U0ALICE', deliveryKey: 'command:C1' },
    });
    await expect(refused).rejects.toMatchObject({ code: 'JOB_NOT_QUEUED' });
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    expect(await lab.records.get('job-1')).toMatchObject({ outcome: 'failed' });
    expect(await lab.redis.exists(lab.keys.dedup('command:C1'))).toBe(0);
  });
});
