import { afterEach, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ENQUEUED_LEASE_MS } from '../../src/jobs/create-job-queue.js';
import { NOT_QUEUED_SUMMARY } from '../../src/jobs/unrecord-command.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { labMs } from '../support/lab-time.js';
import { type InProcessWorker, startInProcessWorker } from '../support/start-in-process-worker.js';

const CILIUM_DEV: LifecycleCommand = { verb: 'cilium', cluster: 'dev' };

let lab: InProcessWorker | undefined;

afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const enqueue = (command: LifecycleCommand, requestedBy = 'U0ALICE', queueIfBusy = false) =>
  lab!.queue.enqueue({ command, requestedBy, channel: 'C0OPS', queueIfBusy });

const jobOf = (jobId: string) => lab!.queue.queue.getJob(jobId);

/** BullMQ's add on this queue's own Queue instance: `failures` calls refused (after `first` ran for real, if given), then the real add. */
function failAdds(failures: number, first?: 'added-then-lost') {
  const queue = lab!.queue.queue;
  const realAdd = queue.add.bind(queue);
  let calls = 0;
  queue.add = async (...args: Parameters<typeof realAdd>) => {
    calls += 1;
    if (calls > failures) return realAdd(...args);
    if (first === 'added-then-lost') await realAdd(...args);
    throw new Error('Connection is closed.');
  };
  return () => calls;
}

/** The queue on its own (no worker started): what a command's producer side leaves in Redis. */
describe('createJobQueue in-process (real Redis)', { timeout: labMs(30_000) }, () => {
  it('enqueues a job with its record; a mutating one takes its cluster lease at once', async () => {
    lab = await startInProcessWorker('queue-enqueue');
    const verify = await enqueue({ verb: 'verify', cluster: 'dev' });
    const cilium = await enqueue(CILIUM_DEV, 'U0BOB');

    expect(verify).toMatchObject({ kind: 'queued', position: 0, record: { id: 'job-1', number: 1 } });
    expect(cilium).toMatchObject({ kind: 'queued', position: 0, record: { id: 'job-2', number: 2 } });
    expect(await lab.records.get('job-2')).toMatchObject({
      command: CILIUM_DEV,
      requestedBy: 'U0BOB',
      channel: 'C0OPS',
    });
    const job = await jobOf('job-2');
    expect([job?.name, job?.data, await job?.getState()]).toEqual(['cilium', { jobId: 'job-2' }, 'waiting']);
    // Only the mutating job holds dev, for as long as a worker may take to pick it up.
    expect(await lab.clusterLeases.holder('dev')).toBe('job-2');
    const ttl = await lab.redis.pttl(lab.keys.lease('dev'));
    expect(ttl).toBeGreaterThan(ENQUEUED_LEASE_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(ENQUEUED_LEASE_MS);
    expect(await lab.redis.lrange(lab.keys.recentJobs, 0, -1)).toEqual(['job-2', 'job-1']);
  });

  it('answers busy with the holder when the cluster is taken, creating no job; verify still queues', async () => {
    lab = await startInProcessWorker('queue-busy');
    await enqueue(CILIUM_DEV);

    expect(await enqueue({ verb: 'up', cluster: 'dev' }, 'U0BOB')).toMatchObject({
      kind: 'busy',
      holderJobId: 'job-1',
      holder: { id: 'job-1', command: CILIUM_DEV },
    });
    expect(await lab.records.get('job-2')).toBeUndefined();
    expect(await jobOf('job-2')).toBeUndefined();
    expect(await lab.clusterLeases.holder('dev')).toBe('job-1');
    // Another cluster, or a read-only verb, is not in the way.
    expect(await enqueue({ verb: 'verify', cluster: 'dev' })).toMatchObject({ kind: 'queued', position: 0 });
    expect(await enqueue({ verb: 'cilium', cluster: 'prod' })).toMatchObject({ kind: 'queued', position: 0 });
  });

  it('with --queue, waits behind the holder: positions count up, the lease stays with the holder', async () => {
    lab = await startInProcessWorker('queue-waiting');
    await enqueue(CILIUM_DEV);

    const second = await enqueue(CILIUM_DEV, 'U0BOB', true);
    const third = await enqueue({ verb: 'up', cluster: 'dev' }, 'U0ALICE', true);
    expect(second).toMatchObject({ kind: 'queued', position: 1, record: { id: 'job-2' } });
    expect(third).toMatchObject({ kind: 'queued', position: 2, record: { id: 'job-3' } });
    expect(await lab.redis.lrange(lab.keys.waiting('dev'), 0, -1)).toEqual(['job-2', 'job-3']);
    expect(await lab.clusterLeases.holder('dev')).toBe('job-1');
    expect(await (await jobOf('job-3'))?.getState()).toBe('waiting');
  });

  it('an add BullMQ keeps refusing takes the command back: no lease, no place in line, the record failed and kept for the retention', async () => {
    lab = await startInProcessWorker('queue-add-fails');
    await enqueue(CILIUM_DEV);
    const adds = failAdds(Number.POSITIVE_INFINITY);

    const alone = lab.queue.enqueue({
      command: { verb: 'up', cluster: 'prod' },
      requestedBy: 'U0BOB',
      channel: 'C0OPS',
      queueIfBusy: false,
      admission: { userId: 'U0BOB', deliveryKey: 'command:trigger-1' },
    });
    await expect(alone).rejects.toMatchObject({ code: 'JOB_NOT_QUEUED' });
    const behind = enqueue({ verb: 'up', cluster: 'dev' }, 'U0BOB', true);
    await expect(behind).rejects.toMatchObject({ code: 'JOB_NOT_QUEUED' });
    expect(adds()).toBe(8);

    // prod is free again, dev still held by its real job, nobody waits behind a job that never runs.
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    expect(await lab.clusterLeases.holder('dev')).toBe('job-1');
    expect(await lab.redis.lrange(lab.keys.waiting('dev'), 0, -1)).toEqual([]);
    for (const id of ['job-2', 'job-3']) {
      expect(await lab.records.get(id)).toMatchObject({ outcome: 'failed', finishedAt: expect.any(Number) });
      expect(await lab.redis.pttl(lab.keys.job(id))).toBeGreaterThan(0);
      expect(await jobOf(id)).toBeUndefined();
    }
    const outcomes = (await lab.audit.recent(10)).filter((entry) => entry.action === 'outcome');
    expect(outcomes.map((entry) => [entry.jobId, entry.what])).toEqual([
      ['job-3', `failed: ${NOT_QUEUED_SUMMARY}`],
      ['job-2', `failed: ${NOT_QUEUED_SUMMARY}`],
    ]);
    // The delivery may be tried again: it is taken, not dropped as a repeat.
    expect(await lab.redis.exists(lab.keys.dedup('command:trigger-1'))).toBe(0);

    lab.queue.queue.add = Object.getPrototypeOf(lab.queue.queue).add;
    expect(
      await lab.queue.enqueue({
        command: { verb: 'up', cluster: 'prod' },
        requestedBy: 'U0BOB',
        channel: 'C0OPS',
        queueIfBusy: false,
        admission: { userId: 'U0BOB', deliveryKey: 'command:trigger-1' },
      }),
    ).toMatchObject({ kind: 'queued', position: 0, record: { id: 'job-4' } });
  });

  it('tries an add again: one refused, or one whose reply was lost (once or every time), still makes exactly one job', async () => {
    lab = await startInProcessWorker('queue-add-retried');
    const refusedOnce = failAdds(1);
    expect(await enqueue(CILIUM_DEV)).toMatchObject({ kind: 'queued', record: { id: 'job-1' } });
    expect(refusedOnce()).toBe(2);
    const lostOnce = failAdds(1, 'added-then-lost');
    expect(await enqueue({ verb: 'verify', cluster: 'dev' })).toMatchObject({
      kind: 'queued',
      record: { id: 'job-2' },
    });
    expect(lostOnce()).toBe(2);

    const everyReplyLost = failAdds(Number.POSITIVE_INFINITY, 'added-then-lost');
    expect(await enqueue({ verb: 'up', cluster: 'prod' })).toMatchObject({
      kind: 'queued',
      record: { id: 'job-3' },
    });
    expect(everyReplyLost()).toBe(4);

    expect((await lab.queue.queue.getJobs(['waiting'])).map((job) => job.id).sort()).toEqual([
      'job-1',
      'job-2',
      'job-3',
    ]);
    expect(await lab.clusterLeases.holder('prod')).toBe('job-3');
    expect(await lab.clusterLeases.holder('dev')).toBe('job-1');
    expect((await lab.records.get('job-2'))?.outcome).toBeUndefined();
  });

  it('promote wakes a parked (delayed) job, and is harmless for a job that is not parked or gone', async () => {
    lab = await startInProcessWorker('queue-promote');
    await enqueue({ verb: 'verify', cluster: 'dev' });
    await lab.queue.queue.add('cilium', { jobId: 'job-9' }, { jobId: 'job-9', delay: 60 * 60_000 });
    expect(await (await jobOf('job-9'))?.getState()).toBe('delayed');

    await lab.queue.promote('job-9');
    await lab.queue.promote('job-1');
    await lab.queue.promote('job-404');
    expect(await (await jobOf('job-9'))?.getState()).toBe('waiting');
    expect(await (await jobOf('job-1'))?.getState()).toBe('waiting');
  });

  it('keeps one verify and drift schedule per cluster that has them (dropping those turned off), and the hourly Flux reminder', async () => {
    lab = await startInProcessWorker('queue-schedules');
    const schedules = async () =>
      (await lab!.queue.queue.getJobSchedulers())
        .map((scheduler) => [scheduler.key, Number(scheduler.every)])
        .sort();

    const { world } = lab;
    await lab.queue.syncVerifySchedules(world);
    await lab.queue.syncVerifySchedules(world);
    expect(await schedules()).toEqual([
      ['drift-dev', 60 * 60_000],
      ['drift-prod', 60 * 60_000],
      ['flux-reminder-dev', 60 * 60_000],
      ['flux-reminder-prod', 60 * 60_000],
      ['verify-dev', 15 * 60_000],
      ['verify-prod', 15 * 60_000],
    ]);
    // Each schedule has its next run queued: a scheduled check of its cluster, no job record.
    const runs = await lab.queue.queue.getJobs(['waiting', 'delayed']);
    expect(runs.map((job) => `${job.name} ${JSON.stringify(job.data)}`).sort()).toEqual([
      'flux-reminder {"fluxReminder":"dev"}',
      'flux-reminder {"fluxReminder":"prod"}',
      'scheduled-drift {"scheduledDrift":"dev"}',
      'scheduled-drift {"scheduledDrift":"prod"}',
      'scheduled-verify {"scheduledVerify":"dev"}',
      'scheduled-verify {"scheduledVerify":"prod"}',
    ]);

    const devOff: WorldConfig = {
      ...world,
      clusters: {
        ...world.clusters,
        dev: { ...world.clusters.dev!, verifyEveryMs: undefined, driftEveryMs: undefined },
      },
    };
    await lab.queue.syncVerifySchedules(devOff);
    expect(await schedules()).toEqual([
      ['drift-prod', 60 * 60_000],
      ['flux-reminder-dev', 60 * 60_000],
      ['flux-reminder-prod', 60 * 60_000],
      ['verify-prod', 15 * 60_000],
    ]);
  });
});
