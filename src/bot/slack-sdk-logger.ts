import { format } from 'node:util';
import { LogLevel, type Logger as SlackSdkLogger } from '@slack/web-api';
import type { Logger } from '../log/create-logger.js';

const SEVERITY: Readonly<Record<LogLevel, number>> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/**
 * The Slack SDKs' logger (Bolt, the Web API client, Socket Mode) over the process's pino logger,
 * so what they print goes through the same redaction as everything else instead of to the console.
 */
export function slackSdkLogger(logger: Logger): SlackSdkLogger {
  let level = LogLevel.INFO;
  let target = logger.child({ component: 'slack-sdk' });
  const at =
    (name: LogLevel) =>
    (...message: unknown[]) => {
      if (SEVERITY[name] >= SEVERITY[level]) target[name](format(...message));
    };
  return {
    debug: at(LogLevel.DEBUG),
    info: at(LogLevel.INFO),
    warn: at(LogLevel.WARN),
    error: at(LogLevel.ERROR),
    setLevel(next) {
      level = next;
    },
    getLevel: () => level,
    setName(name) {
      target = logger.child({ component: name });
    },
  };
}
