import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, type BlockAction, type ButtonAction, HTTPReceiver, LogLevel } from '@slack/bolt';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import { handleApprovalClick } from '../conversation/handle-approval-click.js';
import { handleClusterCommand } from '../conversation/handle-cluster-command.js';
import type { Logger } from '../log/create-logger.js';
import type { ClusterService } from '../service/index.js';
import type { JobPageUrl } from '../wording/job-page-url.js';
import { answerHandlerFailure, postToResponseUrl } from './answer-handler-failure.js';
import { ROLLBACK_ACTION } from './cilium-rollback-offer.js';
import { type AckFirst, createAckFirst } from './create-ack-first.js';
import type { HomeTab } from './create-home-tab.js';
import { APPROVE_ACTION, REJECT_ACTION } from './create-slack-announcer.js';
import { handleRerunClick } from './handle-rerun-click.js';
import { handleRollbackClick } from './handle-rollback-click.js';
import { MRKDWN } from './mrkdwn.js';
import { refuseFutureRequests } from './refuse-future-requests.js';
import { layOutDecision } from './render-decision.js';
import { HOME_APPROVAL_ACTIONS, HOME_VERIFY_ACTION } from './render-home.js';
import { RERUN_ACTION } from './rerun-offer.js';
import type { SlackPoster } from './slack-poster.js';
import { slackSdkLogger } from './slack-sdk-logger.js';

export interface SlackAppDeps {
  readonly env: Env;
  readonly world: WorldConfig;
  readonly service: ClusterService;
  readonly poster: SlackPoster;
  readonly logger: Logger;
  /** The job pages' routes (PUBLIC_URL set): served on Slack's listener in HTTP mode; true when handled. */
  readonly pages?: ((request: IncomingMessage, response: ServerResponse) => boolean) | undefined;
  readonly homeTab: HomeTab;
  /** Signs a job's page link (PUBLIC_URL set): `/cluster jobs` lists them. */
  readonly jobPageUrl?: JobPageUrl | undefined;
}

/** Slack's payloads are a few kB; Bolt refuses a larger body (413) while reading it, before the signature. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Bolt over HTTP (signature checked, 401 on bad, stale or future-dated; 413 on a body larger than
 * Slack sends; only `/healthz` and the job pages beside `/slack/events`) or Socket Mode when an app
 * token is set.
 * The ack goes out first; the answer follows through response_url. A delivery Slack repeats (a
 * retry, or the same body replayed) is recognised by its trigger_id and creates nothing.
 */
export function createSlackApp(deps: SlackAppDeps): App {
  const { env } = deps;
  const socketMode = env.SLACK_APP_TOKEN !== undefined;
  // One SDK logger for the receiver and the app, so the receiver's warnings are redacted too.
  const logger = slackSdkLogger(deps.logger);
  logger.setLevel(LogLevel.WARN);
  // Over HTTP the acks owed are counted; over Socket Mode none are, and the work after each ack takes one turn.
  const acks = createAckFirst();
  const receiver = socketMode ? undefined : createHttpReceiver(deps, logger, acks);
  const app = new App({
    token: env.SLACK_BOT_TOKEN,
    appToken: env.SLACK_APP_TOKEN,
    socketMode,
    receiver,
    clientOptions: { slackApiUrl: env.SLACK_API_URL },
    logger,
    logLevel: LogLevel.WARN,
    processBeforeResponse: false,
    // Bolt's per-request conversation-context middleware: nothing here reads it, every request paid for it.
    convoStore: false,
    // The error handler is given the request's body, to answer the person through its response_url.
    extendedErrorHandler: true,
  });

  registerHandlers(app, deps, acks);
  app.error(async ({ error, body }: { error: Error; body: unknown }) => {
    deps.logger.error({ err: error }, 'slack handler failed');
    // The ack went out first, so without this the person who clicked or typed sees nothing at all.
    await answerHandlerFailure(body, postToResponseUrl).catch((err: unknown) =>
      deps.logger.warn({ err }, 'could not tell the person their request failed'),
    );
  });
  return app;
}

/** Slack's HTTP listener: `/healthz`, the job pages, and Bolt (future-dated requests refused) for the rest. */
function createHttpReceiver(
  deps: SlackAppDeps,
  logger: ReturnType<typeof slackSdkLogger>,
  acks: AckFirst,
): HTTPReceiver {
  const { env } = deps;
  const receiver = new HTTPReceiver({
    signingSecret: env.SLACK_SIGNING_SECRET ?? '',
    port: env.PORT,
    bodyLimit: BODY_LIMIT_BYTES,
    customRoutes: [
      {
        path: '/healthz',
        method: ['GET'],
        handler: (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
        },
      },
    ],
    logger,
  });
  const slack = refuseFutureRequests(receiver.requestListener, Date.now);
  // The job pages first: their GETs carry no Slack signature and never reach Bolt.
  receiver.requestListener = (request, response) => {
    if (deps.pages?.(request, response)) return;
    acks.owe(response);
    slack(request, response);
  };
  return receiver;
}

/**
 * The slash command, the approval and rollback buttons, the App Home: each acks first, then answers
 * once the acks owed to other requests have gone out (create-ack-first.ts).
 */
function registerHandlers(app: App, deps: SlackAppDeps, acks: AckFirst): void {
  app.command('/cluster', async ({ command, ack, respond }) => {
    await ack();
    await acks.afterAcks();
    const reply = await handleClusterCommand(
      {
        text: command.text,
        userId: command.user_id,
        channelId: command.channel_id,
        deliveryKey: `command:${command.trigger_id}`,
      },
      { ...deps, marks: MRKDWN },
    );
    if ('code' in reply.reply && reply.reply.code === 'REPEATED_DELIVERY') {
      deps.logger.info({ trigger: command.trigger_id }, 'repeated delivery of a slash command ignored');
      return;
    }
    await respond({ response_type: 'ephemeral', text: reply.text });
  });

  for (const [actionId, decision] of [
    [APPROVE_ACTION, 'approve'],
    [REJECT_ACTION, 'reject'],
  ] as const) {
    app.action<BlockAction<ButtonAction>>({ action_id: actionId }, async ({ ack, body, action, respond }) => {
      await ack();
      await acks.afterAcks();
      const answer = await handleApprovalClick(
        {
          userId: body.user.id,
          decision,
          value: action.value ?? '',
          channel: body.channel?.id ?? body.container?.channel_id ?? '',
          messageTs: body.message?.ts ?? body.container?.message_ts ?? '',
        },
        { ...deps, marks: MRKDWN, layOutDecision },
      );
      if (answer) await respond({ response_type: 'ephemeral', replace_original: false, text: answer });
    });
  }

  app.event('app_home_opened', async ({ event }) => {
    // The Messages and About tabs open this event too; only the Home tab shows a view.
    if (event.tab !== 'home') return;
    await acks.afterAcks();
    await deps.homeTab.opened(event.user);
  });

  app.action<BlockAction<ButtonAction>>({ action_id: HOME_VERIFY_ACTION }, async ({ ack, body, action }) => {
    await ack();
    await acks.afterAcks();
    if (!(await deps.service.firstDelivery(`home-verify:${body.trigger_id}`))) return;
    await deps.homeTab.verifyClicked(body.user.id, action.value ?? '');
  });
  for (const [actionId, decision] of [
    [HOME_APPROVAL_ACTIONS.approve, 'approve'],
    [HOME_APPROVAL_ACTIONS.reject, 'reject'],
  ] as const) {
    app.action<BlockAction<ButtonAction>>({ action_id: actionId }, async ({ ack, body, action }) => {
      await ack();
      await acks.afterAcks();
      // A redelivered click would only be told "already counted" on the Home: the first one answers.
      if (!(await deps.service.firstDelivery(`home-approval:${body.trigger_id}`))) return;
      await deps.homeTab.approvalClicked(body.user.id, decision, action.value ?? '');
    });
  }
  for (const [actionId, name, handle] of [
    [ROLLBACK_ACTION, 'rollback', handleRollbackClick],
    [RERUN_ACTION, 'rerun', handleRerunClick],
  ] as const) {
    app.action<BlockAction<ButtonAction>>({ action_id: actionId }, async ({ ack, body, action, respond }) => {
      await ack();
      await acks.afterAcks();
      // Slack redelivers a click it thinks went unanswered: one click queues one job.
      if (!(await deps.service.firstDelivery(`${name}:${body.trigger_id}`))) return;
      const answer = await handle(
        {
          userId: body.user.id,
          value: action.value ?? '',
          channel: body.channel?.id ?? body.container?.channel_id ?? '',
          threadTs: (body.message?.thread_ts ?? body.container?.thread_ts) as string | undefined,
        },
        deps,
      );
      await respond({ response_type: 'ephemeral', replace_original: false, text: answer });
    });
  }
}
