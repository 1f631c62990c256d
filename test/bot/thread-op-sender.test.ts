import { describe, expect, it } from 'vitest';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import type { ThreadOp } from '../../src/bot/thread/thread-op.js';
import { createMessageBook } from '../../src/delivery/create-message-book.js';
import type { HeldMessages, ThreadMessages } from '../../src/delivery/thread-outbox.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createMemoryDelivery } from '../support/memory-delivery.js';

const board = { title: 'verify dev', jobNumber: 3, requestedBy: 'U0ALICE', steps: [] };

function recordingPoster() {
  const calls: string[] = [];
  const poster: SlackPoster = {
    async post(message) {
      calls.push(`post ${message.text.split('\n')[0]}`);
      return `100.${calls.length}`;
    },
    async update(message) {
      calls.push(`update ${message.ts}`);
    },
    async upload() {
      calls.push('upload');
    },
    permalink: (channel, ts) => `https://lab.slack.invalid/archives/${channel}/p${ts}`,
  };
  return { poster, calls };
}

/** The sender as the drainer calls it: over the process's book of the messages' ts, with the holder's copy (`held`) if any. */
function senderOver(poster: SlackPoster, messages: ThreadMessages) {
  const send = createThreadOpSender({
    poster,
    logger: createLogger({ level: 'silent', redact: createRedactor() }),
    readLog: async () => '',
  });
  const book = createMessageBook(messages);
  return (jobId: string, op: string, later: readonly string[], held?: HeldMessages) =>
    send(jobId, op, later, book(jobId, held));
}

describe('thread op sender', () => {
  it('sent again after a crash (its ts already recorded), the root message and a tail are not posted twice', async () => {
    const { poster, calls } = recordingPoster();
    const { messages } = createMemoryDelivery(poster);
    const send = senderOver(poster, messages);
    const ops: ThreadOp[] = [
      { kind: 'root', channel: 'C0OPS', board },
      { kind: 'tail', channel: 'C0OPS', stepId: '1-verify', text: '```line 1```' },
    ];
    for (const op of ops) await send('job-3', JSON.stringify(op), []);
    // The process died after Slack took both and their ts were kept, before they left the outbox.
    for (const op of ops) await send('job-3', JSON.stringify(op), []);
    expect(calls).toEqual([
      'post *verify dev* · job #3 · asked by <@U0ALICE>',
      'post ```line 1```',
      'update 100.2',
    ]);
  });

  it('Slack refusing an operation lets it go; any other failure is thrown for a retry', async () => {
    const { poster } = recordingPoster();
    const { messages } = createMemoryDelivery(poster);
    const refusal = Object.assign(new Error('An API error occurred: channel_not_found'), {
      code: 'slack_webapi_platform_error',
    });
    let failure: Error = refusal;
    const send = senderOver({ ...poster, post: () => Promise.reject(failure) }, messages);
    const root = JSON.stringify({ kind: 'root', channel: 'C0GONE', board } satisfies ThreadOp);
    await expect(send('job-3', root, [])).resolves.toBeUndefined();
    failure = new Error('Connection reset');
    await expect(send('job-3', root, [])).rejects.toThrow('Connection reset');
  });

  it('a holder whose post came back after another holder kept its own: it goes on with the kept ts, editing that message and replying under that root', async () => {
    const { poster, calls } = recordingPoster();
    const { messages } = createMemoryDelivery(poster);
    const send = senderOver(poster, messages);
    // Meanwhile the holder that took over posted the root and the step's tail and kept their ts.
    await messages.record('job-3', 'root', '200.1');
    await messages.record('job-3', 'tail:1-verify', '200.2');
    // This holder's copy, read with its claim before any of that.
    const held = new Map<string, string>();
    const tail = (text: string) =>
      JSON.stringify({ kind: 'tail', channel: 'C0OPS', stepId: '1-verify', text } satisfies ThreadOp);
    await send(
      'job-3',
      JSON.stringify({ kind: 'root', channel: 'C0OPS', board } satisfies ThreadOp),
      [],
      held,
    );
    await send('job-3', tail('```line 1```'), [], held);
    await send('job-3', tail('```line 2```'), [], held);
    expect(held).toEqual(
      new Map([
        ['root', '200.1'],
        ['tail:1-verify', '200.2'],
      ]),
    );
    // Its own late posts stay in the channel; everything after goes to the kept ones.
    expect(calls).toEqual([
      'post *verify dev* · job #3 · asked by <@U0ALICE>',
      'post ```line 1```',
      'update 200.2',
    ]);
  });
});
