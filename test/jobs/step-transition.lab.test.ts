import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoundTripCounter } from '../../bench/count-round-trips.js';
import { healthyHosts } from '../support/healthy-hosts.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { type InProcessWorker, startInProcessWorker } from '../support/start-in-process-worker.js';
import { waitFor } from '../support/wait-for.js';

let lab: InProcessWorker | undefined;
let cleanup: () => Promise<void> = async () => undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
  await cleanup();
});

describe('a step transition on the worker', () => {
  it('writes its checkpoint, its job page event and its thread state in one pipeline', async () => {
    const space = uniquePrefix('step-transition');
    cleanup = space.cleanup;
    const trips = createRoundTripCounter();
    lab = await startInProcessWorker('step-transition', {
      replies: healthyHosts,
      redis: {
        connect: () => trips.watch(new Redis(REDIS_URL, { maxRetriesPerRequest: null })),
        prefix: space.prefix,
      },
    });
    lab.startWorker();
    const queued = await lab.queue.enqueue({
      command: { verb: 'verify', cluster: 'dev' },
      requestedBy: 'U0ALICE',
      channel: 'C0OPS',
      queueIfBusy: false,
    });
    if (queued.kind !== 'queued') throw new Error(`verify was not queued: ${queued.kind}`);
    const { id } = queued.record;
    expect(
      await waitFor('the verify job to end', async () => (await lab!.records.get(id))?.outcome, {
        timeoutMs: 15_000,
      }),
    ).toBe('succeeded');

    const steps = (await lab.redis.hkeys(lab.keys.steps(id))).filter((field) => !field.startsWith('_'));
    expect(steps.length).toBeGreaterThan(0);
    const sent = trips.sent();
    const tripOf = (command: string) => sent.filter((trip) => trip.some((one) => one.startsWith(command)));
    const stepsKey = lab.keys.steps(id);
    for (const step of steps) {
      // Running, then its result: each checkpoint in one round trip with the event that tells it.
      const running = tripOf(`hset ${stepsKey} ${step} {"status":"running"`);
      const finished = tripOf(`hset ${stepsKey} ${step} {"status":"succeeded"`);
      expect(running).toHaveLength(1);
      expect(finished).toHaveLength(1);
      expect(running[0]!.join('\n')).toMatch(new RegExp(`"type":"step-started","stepId":"${step}"`));
      expect(finished[0]!.join('\n')).toMatch(new RegExp(`"type":"step-finished","stepId":"${step}"`));
      // The thread's state (its board, what a resuming worker shows), saved in the same write.
      const boardKey = lab.keys.board(id);
      const board = finished[0]!.filter((one) => one.startsWith(`set ${boardKey} `));
      expect(board).toHaveLength(1);
    }
  });
});
