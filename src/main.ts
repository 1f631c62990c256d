#!/usr/bin/env node
import { startClusterBot } from './app/start-cluster-bot.js';
import { loadWorldConfig } from './config/load-world-config.js';
import { readEnv, secretsOf } from './config/read-env.js';
import { isClusterBotError } from './errors.js';
import { createLogger } from './log/create-logger.js';
import { createRedactor } from './log/create-redactor.js';

const EXIT_BAD_CONFIG = 2;

async function main(): Promise<void> {
  let env: ReturnType<typeof readEnv>;
  let world: Awaited<ReturnType<typeof loadWorldConfig>>;
  try {
    env = readEnv();
    if (!env.SLACK_BOT_TOKEN) {
      throw new Error(
        'SLACK_BOT_TOKEN: required (with SLACK_SIGNING_SECRET for HTTP, or SLACK_APP_TOKEN for Socket Mode)',
      );
    }
    world = await loadWorldConfig(env.CLUSTER_BOT_CONFIG ?? 'config/example.yaml');
  } catch (error) {
    // Bad config stops the process before anything connects, saying which key and why.
    process.stderr.write(`cluster-bot: ${(error as Error).message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
  const redact = createRedactor(secretsOf(env));
  const logger = createLogger({ level: env.LOG_LEVEL, redact });
  const bot = await startClusterBot(env, world, logger, redact);
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    bot.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(
    `cluster-bot: ${isClusterBotError(error) ? error.message : String(error?.stack ?? error)}\n`,
  );
  process.exit(1);
});
