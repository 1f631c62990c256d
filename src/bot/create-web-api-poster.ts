import type { WebClient } from '@slack/web-api';
import type { SlackPacer } from '../delivery/delivery.js';
import type { Redact } from '../log/create-redactor.js';
import { redactValue } from '../log/redact-value.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { SlackPoster } from './slack-poster.js';

/**
 * SlackPoster over the Web API client, which retries 5xx (and a 429, should one still come) itself.
 * Each call first waits for room under Slack's limits, and every text that leaves goes through the
 * redactor (each string of the blocks, before they are serialised).
 */
export function createWebApiPoster(
  client: WebClient,
  redact: Redact,
  workspaceUrl: string,
  pacer: SlackPacer,
  metrics?: Metrics,
): SlackPoster {
  const count = (method: string, channel?: string) => {
    metrics?.slackCalls.inc({ method });
    return pacer.take(method, channel);
  };
  const scrub = <T>(value: T): T => redactValue(value, redact);
  return {
    async post(message) {
      await count('chat.postMessage', message.channel);
      const thread =
        message.threadTs === undefined
          ? {}
          : { thread_ts: message.threadTs, reply_broadcast: message.broadcast === true };
      const result = await client.chat.postMessage({
        channel: message.channel,
        text: redact(message.text),
        ...(message.blocks && { blocks: scrub(message.blocks as never[]) }),
        ...thread,
        unfurl_links: false,
      });
      return result.ts as string;
    },
    async update(message) {
      await count('chat.update');
      await client.chat.update({
        channel: message.channel,
        ts: message.ts,
        text: redact(message.text),
        blocks: message.blocks ? scrub(message.blocks as never[]) : [],
      });
    },
    async upload(file) {
      await count('files.getUploadURLExternal');
      await count('files.completeUploadExternal');
      await client.filesUploadV2({
        channel_id: file.channel,
        thread_ts: file.threadTs,
        filename: file.filename,
        title: file.title,
        content: redact(file.content),
        initial_comment: file.comment === undefined ? undefined : redact(file.comment),
      });
    },
    permalink(channel, ts) {
      return `${workspaceUrl.replace(/\/+$/, '')}/archives/${channel}/p${ts.replace('.', '')}`;
    },
  };
}
