import { createSlackDriver, type FakeSlack, startFakeSlack } from '../lab/fake-slack/index.js';
import { type LabWorld, type LabWorldOptions, startLabWorld } from './lab-world.js';
import { type BotProcess, startBotProcess } from './start-bot-process.js';

export const BOT_TOKEN = 'xoxb-1111-2222-slacklab';
export const SIGNING_SECRET = 'slack-lab-signing-secret-0123';
/** Keys the job page links of every process in the lab (never derived from the signing secret). */
export const JOB_PAGE_SECRET = 'slack-lab-job-page-secret-0123456789abcdef';
const APP_TOKEN = 'xapp-1-A0LAB-0000-socketmode';
/**
 * BullMQ's lock and stalled check through the product's own settings, short, for the files that wait
 * for a killed worker's job to be found stalled (about 15 s instead of the default 60 s). Long enough
 * for a loaded machine: the lock is renewed every 5 s.
 */
export const QUICK_STALL_ENV = { JOB_LOCK_DURATION: '10s', JOB_STALLED_INTERVAL: '5s' };

export interface SlackLab extends LabWorld {
  readonly slack: FakeSlack;
  /** The environment the cluster-bot processes run with. */
  readonly processEnv: Record<string, string>;
  readonly driver: ReturnType<typeof createSlackDriver>;
  readonly bot: BotProcess;
  /** Worker-only processes, when the lab was asked for them (the bot then only takes Slack requests). */
  readonly workers: readonly BotProcess[];
}

export interface SlackLabOptions extends LabWorldOptions {
  readonly env?: Record<string, string>;
  /** Deliver over Socket Mode (app token) instead of HTTP. */
  readonly socketMode?: boolean;
  /** Run this many worker processes beside a bot-only process (default: one process doing both). */
  readonly workers?: number;
  /** Run the compiled `dist/main.js` (after `npm run build`) with `npm start`'s flags instead of the test build. */
  readonly built?: boolean;
  /** The workspace's people by id (users.info answers for them alone); without it, every id exists. */
  readonly slackUsers?: Record<string, { name: string; realName?: string }>;
}

/** The real bot process (and workers) against the lab world and a fake Slack, driven as Slack would. */
export async function startSlackLab(options: SlackLabOptions = {}): Promise<SlackLab> {
  const world = await startLabWorld(options);
  try {
    const slack = await startFakeSlack({
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      channels: ['C0OPS', 'C0ALERTS'],
      userGroups: { S0PLATFORM: ['U0DAVE'] },
      ...(options.slackUsers && { users: options.slackUsers }),
    });
    world.onStop(() => slack.close());
    const processEnv: Record<string, string> = {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      ...(options.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_API_URL: slack.apiUrl,
      JOB_PAGE_SECRET,
      ...world.consoleEnv(),
      ...options.env,
    };
    const workers: BotProcess[] = [];
    for (let i = 0; i < (options.workers ?? 0); i++) {
      const { SLACK_APP_TOKEN: _app, SLACK_SIGNING_SECRET: _signing, ...workerEnv } = processEnv;
      const worker = await startBotProcess(
        { ...workerEnv, CLUSTER_BOT_ROLE: 'worker' },
        { built: options.built },
      );
      world.onStop(() => worker.stop());
      workers.push(worker);
    }
    const bot = await startBotProcess(
      { ...processEnv, ...(workers.length > 0 ? { CLUSTER_BOT_ROLE: 'bot' } : {}) },
      { built: options.built },
    );
    world.onStop(() => bot.stop());
    if (options.socketMode)
      await slack.waitFor(() => slack.socket.openConnections > 0 || undefined, { timeoutMs: 15_000 });
    const driver = createSlackDriver({
      slack,
      eventsUrl: options.socketMode ? 'socket' : bot.eventsUrl,
      signingSecret: SIGNING_SECRET,
    });
    return { ...world, slack, processEnv, driver, bot, workers };
  } catch (error) {
    await world.stop();
    throw error;
  }
}
