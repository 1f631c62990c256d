import { describe, expect, it } from 'vitest';
import { findLostJobs, type QueueEvent } from '../../bench/find-lost-jobs.js';

const MINUTE = 60_000;
const verifyJob = (cluster: string, minute: number) => `repeat:verify-${cluster}:${minute * MINUTE}`;
const added = (jobId: string, name = 'scheduled-verify'): QueueEvent => ({ event: 'added', jobId, name });
const completed = (jobId: string): QueueEvent => ({ event: 'completed', jobId });
const failed = (jobId: string): QueueEvent => ({ event: 'failed', jobId });

describe('findLostJobs (the fleet benchmark’s count from the queue’s events)', () => {
  const window = { from: 10 * MINUTE, to: 12 * MINUTE };

  it('counts the verifies due in the window and the commands’ jobs; one with no ending is lost', () => {
    const events = [
      added(verifyJob('fleet01', 9)),
      completed(verifyJob('fleet01', 9)),
      added(verifyJob('fleet01', 10)),
      added(verifyJob('fleet02', 10)),
      added('job-7', 'packages'),
      completed(verifyJob('fleet01', 10)),
      added(verifyJob('fleet01', 11)),
      failed(verifyJob('fleet02', 10)),
      completed('job-7'),
      // Due at the window's end: the next window's.
      added(verifyJob('fleet01', 12)),
    ];
    const schedule = { clusters: ['fleet01'], everyMs: MINUTE };
    expect(findLostJobs(events, window, ['job-7', 'job-8'], schedule)).toEqual({
      jobs: [verifyJob('fleet01', 10), verifyJob('fleet02', 10), verifyJob('fleet01', 11), 'job-7', 'job-8'],
      lost: [verifyJob('fleet01', 11), 'job-8'],
      failed: [verifyJob('fleet02', 10)],
    });
  });

  it('counts a verify the scheduler never queued (skipped under a backlog) as lost', () => {
    const events = [added(verifyJob('fleet01', 10)), completed(verifyJob('fleet01', 10))];
    const schedule = { clusters: ['fleet01', 'fleet02'], everyMs: MINUTE };
    expect(findLostJobs(events, window, [], schedule).lost).toEqual([
      'fleet01: verify never queued',
      'fleet02: verify never queued',
      'fleet02: verify never queued',
    ]);
  });
});
