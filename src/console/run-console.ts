import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { startCore } from '../app/start-core.js';
import { handleApprovalClick } from '../bot/handle-approval-click.js';
import { handleClusterCommand } from '../bot/handle-cluster-command.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { createConsolePoster } from './create-console-poster.js';

export interface ConsoleOptions {
  readonly env: Env;
  readonly world: WorldConfig;
  readonly logger: Logger;
  readonly redact: Redact;
  readonly user: string;
  readonly input: Readable;
  readonly output: Writable;
}

const ANSWER = /^(approve|reject)\s+(\d+)$/;

/**
 * Like Hubot's shell adapter: `/cluster …` lines typed at a prompt go through the same command
 * handling, queue, engine and approval rules as Slack, as the configured console user.
 */
export async function runConsole(options: ConsoleOptions): Promise<void> {
  const { world, output, user } = options;
  const { poster, approval } = createConsolePoster(output, options.redact);
  const core = await startCore({ ...options, metrics: createMetrics(), poster, members: async () => [] });
  const channel = world.slack.commandChannels[0] ?? 'C0CONSOLE';
  output.write(`cluster-bot console as ${user}. Type /cluster help, or quit.\n`);
  const lines = createInterface({ input: options.input, output, prompt: 'cluster-bot> ', terminal: false });
  lines.prompt();
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === 'quit' || line === 'exit') break;
    const answer = ANSWER.exec(line);
    if (answer) {
      const target = approval(Number(answer[2]));
      const reply = target
        ? await handleApprovalClick(
            {
              userId: user,
              decision: answer[1] as 'approve' | 'reject',
              value: target.value,
              channel: target.channel,
              messageTs: target.ts,
            },
            { service: core.service, poster },
          )
        : `no approval number ${answer[2]}`;
      if (reply) output.write(`${reply}\n`);
    } else if (line.startsWith('/cluster')) {
      const reply = await handleClusterCommand(
        { text: line.slice('/cluster'.length), userId: user, channelId: channel },
        { service: core.service, world },
      );
      output.write(`${reply.text}\n`);
    } else if (line !== '') {
      output.write('Type /cluster help, approve N, reject N, or quit.\n');
    }
    lines.prompt();
  }
  lines.close();
  await core.stop();
}
