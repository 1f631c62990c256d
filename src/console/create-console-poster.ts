import type { MessagePoster } from '../conversation/message-poster.js';
import type { Redact } from '../log/create-redactor.js';
import { boardChanges, readBoard } from './board-changes.js';
import { newTailLines } from './new-tail-lines.js';
import { renderForTerminal, type TerminalStyle } from './render-for-terminal.js';

export interface ConsoleApproval {
  readonly value: string;
  readonly channel: string;
  readonly ts: string;
  /** What the number answers, as the request said it: "job #1, cilium.yml". */
  readonly answers: string;
}

/**
 * The thread's messages, printed to a terminal: the status board, thread events and approval requests
 * as terminal text (mentions as @U…, links as text and address, bold only on a TTY), each approval
 * with a short number to answer at the prompt. A board is printed when its state changes (not on
 * its progress ticks), a live output tail as the lines it adds, an approval request as Slack shows it.
 */
export function createConsolePoster(print: (text: string) => void, redact: Redact, style: TerminalStyle) {
  let next = 0;
  const approvals = new Map<number, ConsoleApproval>();
  const lastText = new Map<string, string>();
  const show = (text: string) => print(redact(renderForTerminal(text, style)));
  const poster: MessagePoster = {
    async post(message) {
      const ts = `console.${++next}`;
      const asks = message.asks;
      const text = asks === undefined ? message.text : asks.request;
      show(message.threadTs ? indent(text) : `\n${text}`);
      if (asks !== undefined) {
        const number = approvals.size + 1;
        approvals.set(number, { value: asks.approvalId, channel: message.channel, ts, answers: asks.title });
        show(`  ↳ answer with: approve ${number}   or: reject ${number}   (${number} = ${asks.title})`);
      }
      lastText.set(ts, message.text);
      return ts;
    },
    async update(message) {
      const before = lastText.get(message.ts);
      if (before === message.text) return;
      lastText.set(message.ts, message.text);
      const board = readBoard(message.text);
      const previous = before === undefined ? undefined : readBoard(before);
      if (board && previous) {
        const changes = boardChanges(previous, board, message.text);
        if (changes) show(`\n${changes}`);
      } else if (board || before === undefined) {
        show(`\n${message.text}`);
      } else {
        const added = newTailLines(before, message.text);
        if (added) show(indent(added));
      }
    },
    async upload(file) {
      if (file.comment) show(`  ${file.comment}`);
      show(`  ↳ ${file.title}: ${file.content.split('\n').length} lines (kept in the job log)`);
    },
    permalink: (channel, ts) => `console:${channel}/${ts}`,
  };
  return { poster, approval: (number: number) => approvals.get(number) };
}

const indent = (text: string) => `  ↳ ${text}`;
