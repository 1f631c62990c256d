import type { FakeSlack } from '../lab/fake-slack/index.js';

/** The approval request for a step, in a job's thread, once its Approve/Reject buttons are on it. */
export function approvalMessage(slack: FakeSlack, title: string, timeoutMs = 60_000) {
  return slack.waitFor(
    () =>
      slack
        .allMessages('C0OPS')
        .find(
          (m) =>
            m.thread_ts !== undefined &&
            m.text.includes(`approval needed for ${title}`) &&
            JSON.stringify(slack.message('C0OPS', m.ts)?.blocks ?? []).includes('"type":"button"'),
        ),
    { timeoutMs, description: `approval request for ${title}` },
  );
}
