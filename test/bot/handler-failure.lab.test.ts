import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_FAILED } from '../../src/bot/answer-handler-failure.js';
import type { HomeTab } from '../../src/bot/create-home-tab.js';
import { createSlackApp } from '../../src/bot/create-slack-app.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { readEnv } from '../../src/config/read-env.js';
import { createSlackDriver, type FakeSlack, startFakeSlack } from '../lab/fake-slack/index.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { labMs } from '../support/lab-time.js';

const BOT_TOKEN = 'xoxb-1111-2222-handlerfailure';
const SIGNING_SECRET = 'handler-failure-signing-secret-0123';

let slack: FakeSlack;
let app: ReturnType<typeof createSlackApp>;
let driver: ReturnType<typeof createSlackDriver>;
const logged: string[] = [];

beforeAll(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, channels: ['C0OPS'] });
  const env = readEnv({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
  });
  // The service fails after the ack: Redis gone mid-request, a bug in a handler.
  const service = createFakeClusterService({
    submit: async () => {
      throw new Error('redis went away while recording the command');
    },
  });
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(line) });
  app = createSlackApp({
    env,
    world: await loadExampleWorld(),
    service: service.service,
    poster: {} as SlackPoster,
    logger,
    homeTab: {} as HomeTab,
  });
  const server = (await app.start(0)) as { address(): AddressInfo };
  driver = createSlackDriver({
    slack,
    eventsUrl: `http://127.0.0.1:${server.address().port}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
}, labMs(30_000));
afterAll(async () => {
  await app?.stop();
  await slack?.close();
});

describe('a handler that throws after the ack', () => {
  it('answers the person, ephemerally, without the error, and logs the error', async () => {
    const sent = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(sent.status).toBe(200);

    const answer = await slack.waitFor(
      () => slack.ephemerals.find((e) => e.via === 'response_url' && e.user === 'U0ALICE'),
      { timeoutMs: 5_000, description: 'the failure answered through response_url' },
    );
    expect(answer.text).toBe(HANDLER_FAILED);
    expect(answer.text).not.toContain('redis');
    expect(logged.join('')).toContain('redis went away while recording the command');
  });
});
