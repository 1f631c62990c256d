import type { Readable, Writable } from 'node:stream';
import { listenAddress } from '../config/listen-address.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import { createConsolePoster } from '../console/create-console-poster.js';
import { createTerminalScreen } from '../console/create-terminal-screen.js';
import { runConsole } from '../console/run-console.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { systemClock } from '../system-clock.js';
import { createJobPages, jobLinksFromEnv, logStreamLimitsFromEnv, startPageServer } from '../web/index.js';
import type { JobPageUrl } from '../wording/job-page-url.js';
import { connectRedis } from './connect-redis.js';
import { shutdownDeadlines } from './shutdown-deadlines.js';
import { startCore } from './start-core.js';

export interface ConsoleProcessOptions {
  readonly env: Env;
  readonly world: WorldConfig;
  readonly logger: Logger;
  readonly redact: Redact;
  readonly user: string;
  readonly input: Readable;
  readonly output: Writable;
  /** Whether the output is a terminal (bold and colour) rather than a pipe or a file (plain text). */
  readonly tty: boolean;
}

/**
 * Wires the console process: the same core (Redis, queue, worker) as the Slack process, with the
 * terminal as its poster. No user groups: the console user is named in the config, never resolved.
 */
export async function startConsole(options: ConsoleProcessOptions): Promise<void> {
  const style = { tty: options.tty };
  const screen = createTerminalScreen(options.input, options.output, options.tty);
  const { poster, approval } = createConsolePoster(screen.print, options.redact, style);
  const links = jobLinksFromEnv(options.env, systemClock.now);
  const core = await startCore({
    ...options,
    metrics: createMetrics(),
    redis: connectRedis(options.env),
    poster,
    members: async () => [],
    jobPageUrl: links?.url,
  });
  // With PUBLIC_URL set, the console serves the job pages on PORT too (no Slack listener to share).
  const pages =
    links && (await createJobPages(links, core.service, options.logger, logStreamLimitsFromEnv(options.env)));
  const server = pages && (await startPageServer(listenAddress(options.env, 'PORT'), pages.routes));
  try {
    const jobPageUrl: JobPageUrl = links?.url ?? (() => undefined);
    await runConsole({ ...options, screen, service: core.service, poster, approval, style, jobPageUrl });
  } finally {
    pages?.stop();
    server?.close();
    await core.stop(shutdownDeadlines(options.env.SHUTDOWN_GRACE_SECONDS, systemClock.now()));
  }
}
