import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { JobProcessorDeps } from '../../src/jobs/processor/job-processor-deps.js';
import type { JobRun } from '../../src/jobs/processor/open-run.js';
import { watchRun } from '../../src/jobs/processor/watch-run.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';

describe('watching a running job', () => {
  it('a cancel poll that fails (the connection closed under a stopping worker) is logged and tried again, not left unhandled', async () => {
    let polls = 0;
    const closed = {
      get: async () => {
        polls += 1;
        throw new Error('Connection is closed.');
      },
    } as unknown as Redis;
    const { logger, lines } = captureLogger(createRedactor());
    const deps = {
      redis: closed,
      keys: redisKeys('t'),
      logger,
      cancelPollMs: 5,
    } as unknown as JobProcessorDeps;
    const run = {
      record: { id: 'job-1' },
      cluster: { name: 'dev' },
      mutating: false,
      lease: { held: false },
    } as unknown as JobRun;
    const controller = new AbortController();

    const stop = await watchRun(deps, run, controller, null);
    await new Promise((resolve) => setTimeout(resolve, 40));
    stop();

    expect(polls).toBeGreaterThan(1);
    expect(lines.join('\n')).toContain('cancel poll failed; trying again');
    expect(controller.signal.aborted).toBe(false);
  });
});
