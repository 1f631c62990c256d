import type { Writable } from 'node:stream';
import { APPROVE_ACTION } from '../bot/create-slack-announcer.js';
import type { SlackMessage, SlackPoster } from '../bot/slack-poster.js';
import type { Redact } from '../log/create-redactor.js';
import { renderForTerminal, type TerminalStyle } from './render-for-terminal.js';

export interface ConsoleApproval {
  readonly value: string;
  readonly channel: string;
  readonly ts: string;
}

/**
 * The Slack calls, printed to a terminal: the status board, thread events and approval requests
 * as terminal text (mentions as @U…, links as text and address, bold only on a TTY), each approval
 * with a short number to answer at the prompt.
 */
export function createConsolePoster(output: Writable, redact: Redact, style: TerminalStyle) {
  let next = 0;
  const approvals = new Map<number, ConsoleApproval>();
  const lastText = new Map<string, string>();
  const print = (text: string) => output.write(`${redact(renderForTerminal(text, style))}\n`);
  const poster: SlackPoster = {
    async post(message) {
      const ts = `console.${++next}`;
      print(message.threadTs ? `  ↳ ${message.text}` : `\n${message.text}`);
      for (const value of approvalIds(message)) {
        const number = approvals.size + 1;
        approvals.set(number, { value, channel: message.channel, ts });
        print(`  ↳ answer with: approve ${number}   or: reject ${number}`);
      }
      lastText.set(ts, message.text);
      return ts;
    },
    async update(message) {
      // Boards are updated about once a second; only changes are worth a line on a terminal.
      if (lastText.get(message.ts) === message.text) return;
      lastText.set(message.ts, message.text);
      print(`\n${message.text}`);
    },
    async upload(file) {
      if (file.comment) print(`  ${file.comment}`);
      print(`  ↳ ${file.title}: ${file.content.split('\n').length} lines (kept in the job log)`);
    },
    permalink: (channel, ts) => `console:${channel}/${ts}`,
  };
  return { poster, approval: (number: number) => approvals.get(number) };
}

interface ButtonElement {
  readonly action_id?: unknown;
  readonly value?: unknown;
}

/** The approval ids on a message's Approve buttons (Block Kit `actions` blocks). */
function approvalIds(message: SlackMessage): string[] {
  return (message.blocks ?? []).flatMap((block) => {
    const elements = (block as { readonly elements?: unknown } | null)?.elements;
    if (!Array.isArray(elements)) return [];
    return (elements as ButtonElement[])
      .filter((button) => button.action_id === APPROVE_ACTION && typeof button.value === 'string')
      .map((button) => button.value as string);
  });
}
