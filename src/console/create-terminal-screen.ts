import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { showForeignControls } from './render-for-terminal.js';

export interface TerminalScreen {
  /**
   * Prints above the prompt: the line being typed is cleared, the text printed, the prompt and typed
   * text drawn again. The console's one way out: every control character in the text is shown, not
   * obeyed, but for the console's own styles on a TTY.
   */
  print(text: string): void;
  /** Shows the prompt for the next line. */
  prompt(): void;
  /** The lines typed, one at a time. */
  lines(): AsyncIterable<string>;
  close(): void;
}

const PROMPT = 'cluster-bot> ';

/**
 * The console's terminal: on a TTY, readline edits the line (arrows, Ctrl-A/E, history with ↑/↓)
 * and output that arrives while someone types is printed above their line instead of through it;
 * on a pipe or file, plain lines in and out.
 */
export function createTerminalScreen(input: Readable, output: Writable, tty: boolean): TerminalScreen {
  const lines = createInterface({
    input,
    output,
    prompt: PROMPT,
    terminal: tty,
    historySize: 200,
    removeHistoryDuplicates: true,
  });
  let prompting = false;
  return {
    print(marked) {
      const text = showForeignControls(marked, { tty });
      if (!tty || !prompting) {
        output.write(`${text}\n`);
        return;
      }
      // Column 0, erase the prompt and what is typed, print, then readline redraws both (cursor kept).
      output.write(`\r\u001b[2K${text}\n`);
      lines.prompt(true);
    },
    prompt() {
      prompting = true;
      lines.prompt();
    },
    lines: () => ({
      async *[Symbol.asyncIterator]() {
        // Output between a typed line and the next prompt is printed above an empty prompt, as a shell's job notices are.
        for await (const line of lines) yield line;
      },
    }),
    close: () => lines.close(),
  };
}
