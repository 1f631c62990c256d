import type { WorldConfig } from '../config/world-config.js';
import { handleApprovalClick } from '../conversation/handle-approval-click.js';
import { handleClusterCommand } from '../conversation/handle-cluster-command.js';
import type { MessagePoster } from '../conversation/message-poster.js';
import type { Redact } from '../log/create-redactor.js';
import type { ClusterService } from '../service/index.js';
import { describeHome } from '../wording/describe-home.js';
import type { JobPageUrl } from '../wording/job-page-url.js';
import type { ConsoleApproval } from './create-console-poster.js';
import type { TerminalScreen } from './create-terminal-screen.js';
import { renderForTerminal, type TerminalStyle } from './render-for-terminal.js';
import { finishForTerminal, terminalMarks } from './terminal-marks.js';

export interface ConsoleOptions {
  readonly world: WorldConfig;
  readonly service: ClusterService;
  /** The console poster: where the job's threads and approval requests are printed. */
  readonly poster: MessagePoster;
  /** The approval request printed as number N, for `approve N`. */
  readonly approval: (number: number) => ConsoleApproval | undefined;
  readonly user: string;
  /** Where lines are typed and everything is printed (the poster prints there too). */
  readonly screen: TerminalScreen;
  readonly style: TerminalStyle;
  readonly jobPageUrl: JobPageUrl;
  /** Answers carry stored text (a verify's summary, an alert's observation): redacted like the poster's lines. */
  readonly redact: Redact;
}

const ANSWER = /^(approve|reject)\s+(\d+)$/;

/**
 * Like Hubot's shell adapter: `/cluster …` lines typed at a prompt go through the same command
 * handling, queue, engine and approval rules as Slack, as the configured console user. `home`
 * prints the App Home's overview.
 */
export async function runConsole(options: ConsoleOptions): Promise<void> {
  const { world, screen, user, service, poster, approval } = options;
  const channel = world.slack.commandChannels[0] ?? 'C0CONSOLE';
  const marks = terminalMarks(options.style);
  const print = (text: string) => screen.print(options.redact(text));
  /** The console's own answers, marked for the terminal by the wording. */
  const say = (marked: string) => print(finishForTerminal(marked, options.style));
  say(`cluster-bot console as ${user}. Type /cluster help, home, or quit.`);
  screen.prompt();
  for await (const raw of screen.lines()) {
    const line = raw.trim();
    if (line === 'quit' || line === 'exit') break;
    const answer = ANSWER.exec(line);
    if (answer) {
      const target = approval(Number(answer[2]));
      // Says which job and step the number answers before the decision is taken.
      // What the number answers is quoted from the request, which the thread worded in mrkdwn.
      if (target) print(renderForTerminal(`${answer[1]} ${answer[2]} = ${target.answers}`, options.style));
      const reply = target
        ? await handleApprovalClick(
            {
              userId: user,
              decision: answer[1] as 'approve' | 'reject',
              value: target.value,
              channel: target.channel,
              messageTs: target.ts,
            },
            { service, poster, marks },
          )
        : `no approval number ${answer[2]}`;
      if (reply) say(reply);
    } else if (line === 'home') {
      say(describeHome(await service.home({ userId: user, channelId: channel }), options.jobPageUrl, marks));
    } else if (line.startsWith('/cluster')) {
      const { text, reply } = await handleClusterCommand(
        { text: line.slice('/cluster'.length), userId: user, channelId: channel },
        { service, world, marks, jobPageUrl: options.jobPageUrl },
      );
      say(text);
      const page =
        'kind' in reply && reply.kind === 'queued'
          ? options.jobPageUrl(reply.jobId, reply.pageNonce)
          : undefined;
      if (page) say(`Job page: ${page}`);
    } else if (line !== '') {
      say('Type /cluster help, home, approve N, reject N, or quit.');
    }
    screen.prompt();
  }
  screen.close();
}
