import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import type { JobThread } from '../../src/jobs/ports/job-thread.js';
import type { ThreadMessages, ThreadOutbox } from '../../src/jobs/ports/thread-outbox.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';

/**
 * A job thread's outbox without Redis, for in-process tests: operations go one at a time, in order,
 * through the real sender to `poster`; saved states and the messages' ts are kept for the test.
 */
export function createMemoryThreadOutbox(
  poster: SlackPoster,
  readLog: () => Promise<string> = async () => '',
) {
  const ts = new Map<string, string>();
  const messages: ThreadMessages = {
    get: async (jobId, name) => ts.get(`${jobId}/${name}`),
    record: async (jobId, name, value) => {
      const key = `${jobId}/${name}`;
      if (!ts.has(key)) ts.set(key, value);
      return ts.get(key) ?? value;
    },
  };
  const send = createThreadOpSender({
    poster,
    messages,
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
      ).catch(() => undefined);
      queued.shift();
    }
    sending = undefined;
  };
  const outbox: ThreadOutbox = {
    async append(jobId, ops, _at, thread) {
      if (thread) saved.push(structuredClone(thread));
      queued.push(...ops.map((op) => ({ jobId, op })));
      sending ??= sendAll();
    },
    async delivered() {
      while (sending) await sending;
    },
  };
  return { outbox, saved, messages };
}
