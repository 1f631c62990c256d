import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../bench/bench-result.js';
import { type Breakdown, PARTS } from '../../bench/break-down-job.js';
import { benchRows, renderTable } from '../../bench/render-table.js';
import { percentile } from '../../bench/stats.js';

const machine = {
  cpus: 2,
  model: 'Test CPU',
  memoryGb: 24,
  node: 'v20.20.2',
  at: '2026-11-29T00:00:00.000Z',
  redis: 'single',
} as const;

describe('benchmark report', () => {
  it('takes nearest-rank percentiles, so p99 of 200 samples is the second largest', () => {
    const samples = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(percentile(samples, 50)).toBe(100);
    expect(percentile(samples, 99)).toBe(198);
    expect(percentile([], 50)).toBeNaN();
  });

  it('shows a section that did not finish as missed, with the reason it gave', () => {
    const rows = benchRows({
      machine,
      failed: {
        overhead: 'job-5 had no outcome after 180 s: its last log lines: waiting for approval (3-cilium)',
      },
    });
    expect(rows).toEqual([
      expect.objectContaining({
        figure: 'section `overhead`',
        met: false,
        measured: expect.stringContaining('job-5 had no outcome'),
      }),
    ]);
  });

  it('marks each figure against its target, and names the machine', () => {
    const result: BenchResult = {
      machine,
      ack: { p50: 40, p99: 120, n: 200, bareBoltP99: 100, ratioToBareBolt: 1.2 },
      memory: {
        peakRssMb: 180,
        peakRssMbDoubled: 185,
        streamedMb: 500,
        streamedMbDoubled: 1000,
        warmRssMb: 150,
        mbPerSecond: 10,
      },
      throughput: {
        jobs: 300,
        rounds: 3,
        workerCpuMsPerJob: 31.5,
        workerCpuProfile: [
          { where: 'src/log/redact-line.ts', msPerJob: 4.2 },
          { where: 'everything else', msPerJob: 27.3 },
        ],
        jobsPerSec: 100,
        redisRoundTripsPerJob: 7.4,
        deliveryRoundTripsPerJob: 9.5,
      },
    };
    expect(benchRows(result).map((row) => [row.target, row.met])).toEqual([
      ['p99 < 100 ms', false],
      ['p99 ≤ 1.5 × bare Bolt, and < 100 ms at 20 in flight', false],
      ['< 200 MB, flat when the output doubles (within 10 %)', true],
      ["≤ 25 ms (24 clusters verified every minute: ≤ 10 % of a worker's 100m CPU request)", false],
      ['reported', undefined],
      ['delivery ≤ 10', true],
    ]);
    const table = renderTable(result);
    expect(table).toContain('| p50 40 ms, p99 120 ms | p99 < 100 ms | ❌ missed |');
    expect(table).toContain('| p99 120 ms vs bare Bolt 100 ms: ratio 1.2 |');
    expect(table).toContain('| 31.5 ms (100 jobs/s) |');
    expect(table).toContain('| src/log/redact-line.ts 4.2, everything else 27.3 | reported | — |');
    expect(table).toContain(
      "| 7.4; the thread's delivery (any process's outbox drainer) 9.5 more | delivery ≤ 10 | ✅ |",
    );
    expect(table).toContain('Machine: 2 × Test CPU, 24 GB, Node v20.20.2; single Redis;');
  });

  it('holds the ack to 1.5 × a bare Bolt app even when it is under 100 ms, and names the Redis Cluster', () => {
    const ack = { p50: 20, p99: 80, n: 200, bareBoltP99: 40, ratioToBareBolt: 2 };
    const result: BenchResult = { machine: { ...machine, redis: 'cluster' }, ack };
    expect(benchRows(result).map((row) => row.met)).toEqual([true, false]);
    expect(renderTable(result)).toContain('Redis Cluster (3 masters on loopback)');
  });

  it('calls memory that grows with the output a miss even under 200 MB', () => {
    const rows = benchRows({
      machine,
      memory: {
        peakRssMb: 120,
        peakRssMbDoubled: 190,
        streamedMb: 500,
        streamedMbDoubled: 1000,
        warmRssMb: 100,
        mbPerSecond: 10,
      },
    });
    expect(rows[0]?.met).toBe(false);
  });

  it('holds the job page to p99 < 1 s from a printed line to the open page, and a long job opened to < 2 s', () => {
    const jobPage = {
      p50: 100,
      p99: 1_200,
      n: 100,
      lines: 100_000,
      seconds: 10,
      domElements: 132,
      openMs: 1_500,
    };
    const [row, opened] = benchRows({ machine, jobPage });
    expect(row).toMatchObject({ measured: 'p50 100 ms, p99 1200 ms', target: 'p99 < 1 s', met: false });
    expect(row?.figure).toContain('line printed → visible on an open job page');
    expect(opened).toMatchObject({ measured: '1500 ms', target: '< 2 s', met: true });
  });

  it('holds the fleet to zero lost jobs, overlaps and 429s and a flat worker RSS; ack and Redis bytes reported', () => {
    const fleet = {
      clusters: 24,
      minutes: 10,
      jobs: 260,
      scheduledVerifies: 240,
      commandJobs: 20,
      jobsLost: 1,
      jobsFailed: 0,
      verifiesNotPassed: 0,
      overlaps: 0,
      rateLimited: 0,
      ackP99: 35,
      ackN: 140,
      rssStartMb: 100,
      rssEndMb: 112,
      redisBytesPerJob: 900,
    };
    const rows = benchRows({ machine, fleet });
    expect(rows.map((row) => [row.target, row.met])).toEqual([
      ['0', false],
      ['0', true],
      ['0', true],
      ['reported', undefined],
      ['flat (within 10 %)', false],
      ['reported', undefined],
    ]);
    expect(rows[0]?.measured).toBe('1 of 260 (240 scheduled verifies, 0 not passed; 0 failed)');
    expect(rows[4]?.measured).toBe('100 MB → 112 MB');
  });

  it('reports where a bot job spent its time beside the overhead ratio, largest part first', () => {
    const breakdown = Object.fromEntries(PARTS.map((part) => [part, 0])) as Breakdown;
    const overhead = {
      ratio: 1.1,
      ratioMin: 1.0,
      ratioMax: 1.2,
      botSeconds: 22,
      scriptSeconds: 20,
      pairs: 5,
      playbookRuns: 26,
      breakdown: { ...breakdown, playbooks: 12_000, sshConnect: 3_000, previews: 4_000 },
      scriptBreakdown: { playbooks: 11_000, previews: 9_000 },
      remoteCommands: 70,
      sshConnections: 7,
      sshConnectionsTarget: 6,
      sshConnectMs: 700,
    };
    const [ratio, where, connections] = benchRows({ machine, overhead });
    expect(ratio).toMatchObject({ target: 'ratio ≤ 1.02', met: false });
    expect(where?.figure).toContain('70 remote commands');
    expect(where?.measured).toMatch(
      /^playbooks 12000, previews \(.*\) 4000, SSH connecting 3000, .*; the script: playbooks 11000, previews 9000$/,
    );
    expect(where?.met).toBeUndefined();
    expect(connections).toMatchObject({
      measured: '7 connections, 700 ms connecting in all (medians)',
      target: '≤ one per host each run touches (6)',
      met: false,
    });
  });
});
