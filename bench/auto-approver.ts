import { findButton } from '../test/lab/fake-slack/index.js';
import type { SlackLab } from '../test/support/start-slack-lab.js';

export interface Click {
  /** The approval request message that was answered. */
  readonly ts: string;
  /** When the click left the driver (epoch ms). */
  readonly at: number;
}

/**
 * Answers every approval request in #ops the moment it appears, as an approver (U0BOB) at the
 * keyboard would, so a job's time is the bot's and the playbooks' and not a person's.
 */
export function startAutoApprover(lab: SlackLab): { readonly clicks: readonly Click[]; stop(): void } {
  const clicks: Click[] = [];
  const answered = new Set<string>();
  let running = true;
  const loop = async () => {
    while (running) {
      const pending = lab.slack
        .allMessages('C0OPS')
        .filter((message) => !answered.has(message.ts) && findButton(message, { text: 'Approve' }));
      for (const message of pending) {
        answered.add(message.ts);
        const at = Date.now();
        await lab.driver.click({
          channel: 'C0OPS',
          where: { ts: message.ts },
          button: { text: 'Approve' },
          userId: 'U0BOB',
        });
        clicks.push({ ts: message.ts, at });
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const done = loop();
  return {
    clicks,
    stop() {
      running = false;
      void done;
    },
  };
}
