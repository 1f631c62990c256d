#!/usr/bin/env -S node --max-old-space-size=256
import { pino } from 'pino';
import { startClusterBot } from './app/start-cluster-bot.js';
import { startConsole } from './app/start-console.js';
import { checkSecretFiles } from './config/check-secret-files.js';
import { loadWorldConfig } from './config/load-world-config.js';
import { readEnv, secretsOf } from './config/read-env.js';
import { secretFileValues } from './config/secret-file-values.js';
import { isClusterBotError } from './errors.js';
import { createLogger } from './log/create-logger.js';
import { createRedactor } from './log/create-redactor.js';

const EXIT_BAD_CONFIG = 2;
const EXAMPLE_CONFIG = 'config/example.yaml';

async function main(): Promise<void> {
  let env: ReturnType<typeof readEnv>;
  let world: Awaited<ReturnType<typeof loadWorldConfig>>;
  try {
    env = readEnv();
    world = await loadWorldConfig(env.CLUSTER_BOT_CONFIG ?? EXAMPLE_CONFIG);
    await checkSecretFiles(world);
  } catch (error) {
    // Bad config stops the process before anything connects, saying which key and why.
    process.stderr.write(`cluster-bot: ${(error as Error).message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
  const redact = createRedactor([...secretsOf(env), ...(await secretFileValues(world))]);

  if (!env.SLACK_BOT_TOKEN) {
    // Console mode: no Slack tokens, a terminal instead; logs go to stderr, out of the way.
    const user = env.CONSOLE_USER ?? world.access.operators.find((id) => /^[UW]/.test(id));
    if (!user) {
      process.stderr.write(
        'cluster-bot: CONSOLE_USER: required (access.operators lists no user to act as)\n',
      );
      process.exit(EXIT_BAD_CONFIG);
    }
    const logger = createLogger({
      level: env.LOG_LEVEL,
      redact,
      destination: pino.destination({ fd: 2, sync: false }),
    });
    await startConsole({
      env,
      world,
      logger,
      redact,
      user,
      input: process.stdin,
      output: process.stdout,
      tty: process.stdout.isTTY === true,
    });
    process.exit(0);
  }

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
