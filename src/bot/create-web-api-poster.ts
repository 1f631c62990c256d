import type { WebClient } from '@slack/web-api';
import type { Redact } from '../log/create-redactor.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { SlackPoster } from './slack-poster.js';

/**
 * SlackPoster over the Web API client, which honours 429 Retry-After and retries 5xx itself.
 * Every text that leaves goes through the redactor first.
 */
export function createWebApiPoster(
  client: WebClient,
  redact: Redact,
  workspaceUrl: string,
  metrics?: Metrics,
): SlackPoster {
  const count = (method: string) => metrics?.slackCalls.inc({ method });
  const scrub = <T>(value: T): T => JSON.parse(redact(JSON.stringify(value))) as T;
  return {
    async post(message) {
      count('chat.postMessage');
      const result = await client.chat.postMessage({
        channel: message.channel,
        text: redact(message.text),
        blocks: message.blocks ? scrub(message.blocks as never[]) : undefined,
        thread_ts: message.threadTs,
        unfurl_links: false,
      });
      return result.ts as string;
    },
    async update(message) {
      count('chat.update');
      await client.chat.update({
        channel: message.channel,
        ts: message.ts,
        text: redact(message.text),
        blocks: message.blocks ? scrub(message.blocks as never[]) : [],
      });
    },
    async ephemeral(message) {
      count('chat.postEphemeral');
      await client.chat.postEphemeral({
        channel: message.channel,
        user: message.user,
        text: redact(message.text),
        blocks: message.blocks ? scrub(message.blocks as never[]) : undefined,
        thread_ts: message.threadTs,
      });
    },
    async upload(file) {
      count('files.uploadV2');
      await client.filesUploadV2({
        channel_id: file.channel,
        thread_ts: file.threadTs,
        filename: file.filename,
        title: file.title,
        content: redact(file.content),
      });
    },
    permalink(channel, ts) {
      return `${workspaceUrl.replace(/\/+$/, '')}/archives/${channel}/p${ts.replace('.', '')}`;
    },
  };
}
