import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { meterJobPages } from '../../src/app/meter-job-pages.js';

describe('the job pages on /metrics', () => {
  it("shows the open log streams, the jobs polled and the polls' reads as they are when scraped", async () => {
    const registry = new Registry();
    let stats = { streams: 3, pollers: 1, polls: 10, pollReads: 10 };
    meterJobPages(registry, { stats: () => stats });
    expect(await registry.metrics()).toMatch(
      /cluster_bot_job_page_streams 3\n[\s\S]*cluster_bot_job_page_pollers 1\n/,
    );
    stats = { streams: 0, pollers: 0, polls: 12, pollReads: 12 };
    const text = await registry.metrics();
    expect(text).toContain('cluster_bot_job_page_streams 0\n');
    expect(text).toContain('cluster_bot_job_page_poll_reads 12\n');
  });
});
