import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { createWebApiPoster } from '../../src/bot/create-web-api-poster.js';
import { createRedactor } from '../../src/log/create-redactor.js';

function recordingClient() {
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  const record = (method: string) => async (args: Record<string, unknown>) => {
    calls.push({ method, args });
    return { ok: true, ts: '1.0001' };
  };
  const client = {
    chat: { postMessage: record('chat.postMessage'), update: record('chat.update') },
    filesUploadV2: record('files.uploadV2'),
  } as unknown as WebClient;
  return { client, calls };
}

describe('the Slack Web API poster', () => {
  it('redacts each string of the blocks before they are sent: `token: "x"` and a broken quote included', async () => {
    const { client, calls } = recordingClient();
    const poster = createWebApiPoster(client, createRedactor(), 'https://lab.slack.com/', {
      take: async () => undefined,
    });
    const preview = [
      '+token: "K10abc::server:previewsecret01"',
      '+ansible_become_password=abc"dsecret',
      '+node-name: k3s-dev-1',
    ].join('\n');
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${preview}\`\`\`` } }];
    await poster.post({ channel: 'C0OPS', text: 'approval needed for cilium.yml', blocks });
    await poster.update({ channel: 'C0OPS', ts: '1.0001', text: 'approval needed', blocks });
    const sent = JSON.stringify(calls);
    expect(sent).not.toMatch(/previewsecret01|dsecret/);
    expect(calls[0]!.args.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '```+token: [REDACTED]\n+ansible_become_password=[REDACTED]\n+node-name: k3s-dev-1```',
        },
      },
    ]);
  });

  it('broadcasts a thread reply to the channel only when asked, and never a message outside a thread', async () => {
    const { client, calls } = recordingClient();
    const poster = createWebApiPoster(client, createRedactor(), 'https://lab.slack.com/', {
      take: async () => undefined,
    });
    await poster.post({ channel: 'C0OPS', threadTs: '1.0001', text: 'approval needed', broadcast: true });
    await poster.post({ channel: 'C0OPS', threadTs: '1.0001', text: 'progress' });
    await poster.post({ channel: 'C0OPS', text: 'a board', broadcast: true });
    expect(calls.map((call) => call.args.reply_broadcast)).toEqual([true, false, undefined]);
  });
});
