import { describe, expect, it } from 'vitest';
import { findOverlaps } from '../../bench/find-overlaps.js';
import type { AuditEntry } from '../../src/jobs/audit-log.js';

let at = 0;
const entry = (action: AuditEntry['action'], jobId: string, what: string): AuditEntry => ({
  at: ++at,
  who: action === 'command' ? 'U0ALICE' : 'cluster-bot',
  action,
  what,
  jobId,
});
const command = (jobId: string, node: string) => entry('command', jobId, `packages ${node}`);
const start = (jobId: string, cluster: string) => entry('start', jobId, `holds ${cluster}: packages x`);
const outcome = (jobId: string) => entry('outcome', jobId, 'succeeded: its one step done');

describe('findOverlaps (the fleet benchmark’s check from the audit trail)', () => {
  it('finds a job started on a cluster while another still held it', () => {
    const trail = [
      command('job-1', 'k3s-fleet01-1'),
      command('job-2', 'k3s-fleet01-2'),
      start('job-1', 'fleet01'),
      start('job-2', 'fleet01'),
      outcome('job-1'),
      outcome('job-2'),
    ];
    expect(findOverlaps(trail)).toEqual([{ cluster: 'fleet01', jobs: ['job-1', 'job-2'] }]);
  });

  it('finds a job started beside an earlier holder after a later overlapping one ended', () => {
    const trail = [
      start('job-1', 'fleet01'),
      start('job-2', 'fleet01'),
      outcome('job-2'),
      start('job-3', 'fleet01'),
      outcome('job-1'),
      outcome('job-3'),
    ];
    expect(findOverlaps(trail)).toEqual([
      { cluster: 'fleet01', jobs: ['job-1', 'job-2'] },
      { cluster: 'fleet01', jobs: ['job-1', 'job-3'] },
    ]);
  });

  it('finds none when jobs on one cluster take turns, or run side by side on different clusters', () => {
    const trail = [
      command('job-1', 'k3s-fleet01-1'),
      command('job-2', 'k3s-fleet01-2'),
      command('job-3', 'k3s-fleet02-1'),
      start('job-1', 'fleet01'),
      start('job-3', 'fleet02'),
      outcome('job-1'),
      start('job-2', 'fleet01'),
      outcome('job-3'),
      outcome('job-2'),
    ];
    expect(findOverlaps(trail)).toEqual([]);
  });

  it('takes a job resumed after an approval, starting again while it holds its cluster, for no overlap', () => {
    const trail = [start('job-1', 'fleet01'), start('job-1', 'fleet01'), outcome('job-1')];
    expect(findOverlaps(trail)).toEqual([]);
  });

  it('refuses a start entry that does not say which cluster it holds', () => {
    expect(() => findOverlaps([entry('start', 'job-1', 'packages k3s-fleet01-1')])).toThrow(
      /without its cluster/,
    );
  });
});
