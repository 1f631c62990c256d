import { Gauge, type Registry } from 'prom-client';
import type { JobPages } from '../web/index.js';

/** The job pages' log streams on /metrics, read from the pages when Prometheus scrapes. */
export function meterJobPages(registry: Registry, pages: Pick<JobPages, 'stats'>): void {
  const gauge = (name: string, help: string, read: (stats: ReturnType<JobPages['stats']>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(pages.stats()));
      },
    });
  gauge('cluster_bot_job_page_streams', 'Job page log streams open now', (stats) => stats.streams);
  gauge(
    'cluster_bot_job_page_pollers',
    'Jobs polled for their open log streams now',
    (stats) => stats.pollers,
  );
  gauge(
    'cluster_bot_job_page_poll_reads',
    "Redis reads the log streams' polls made (one per job and place, however many streams)",
    (stats) => stats.pollReads,
  );
}
