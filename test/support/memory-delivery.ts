import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import { createMessageBook } from '../../src/delivery/create-message-book.js';
import type { Delivery } from '../../src/delivery/delivery.js';
import type { ThreadMessages } from '../../src/delivery/thread-outbox.js';
import type { JobThread } from '../../src/jobs/ports/job-thread.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';

/**
 * Delivery without Redis, for in-process tests: operations go one at a time, in order, through the
 * real sender to `poster`; saved states and the messages' ts are kept for the test.
 */
export function createMemoryDelivery(poster: SlackPoster, readLog: () => Promise<string> = async () => '') {
  const ts = new Map<string, string>();
  const messages: ThreadMessages = {
    get: async (jobId, name) => ts.get(`${jobId}/${name}`),
    record: async (jobId, name, value) => {
      const key = `${jobId}/${name}`;
      if (!ts.has(key)) ts.set(key, value);
      return ts.get(key) ?? value;
    },
  };
  const book = createMessageBook(messages);
  const send = createThreadOpSender({
    poster,
    logger: createLogger({ level: 'silent', redact: createRedactor() }),
    readLog,
  });
  const queued: { jobId: string; op: string }[] = [];
  const saved: JobThread[] = [];
  let sending: Promise<void> | undefined;
  const sendAll = async () => {
    for (let next = queued[0]; next; next = queued[0]) {
      const later = queued.slice(1).filter((other) => other.jobId === next!.jobId);
      await send(
        next.jobId,
        next.op,
        later.map((other) => other.op),
        book(next.jobId),
      ).catch(() => undefined);
      queued.shift();
    }
    sending = undefined;
  };
  const delivery: Delivery = {
    thread: (jobId) => ({
      append(ops, state) {
        if (state) saved.push(structuredClone(state() as JobThread));
        queued.push(...ops.map((op) => ({ jobId, op })));
        sending ??= sendAll();
      },
      appended: async () => undefined,
    }),
    async delivered() {
      while (sending) await sending;
    },
  };
  return { delivery, saved, messages };
}
