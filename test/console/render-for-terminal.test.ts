import { describe, expect, it } from 'vitest';
import { renderForTerminal } from '../../src/console/render-for-terminal.js';

const plain = (text: string) => renderForTerminal(text, { tty: false });
const tty = (text: string) => renderForTerminal(text, { tty: true });

describe('renderForTerminal', () => {
  it('turns mentions, channels and special mentions into what a person would type', () => {
    expect(plain('asked by <@U0BOB>, approvers <!subteam^S0OPS|@ops>, see <#C0OPS|ops> <!here>')).toBe(
      'asked by @U0BOB, approvers @ops, see #ops @here',
    );
    expect(plain('<@U0BOB|bob> in <#C0OPS>')).toBe('@bob in #C0OPS');
  });

  it('shows a link as its text and address, a bare link as its address', () => {
    expect(plain('<https://bot.example/jobs/12?t=abc|job page> and <https://slack.example/x>')).toBe(
      'job page (https://bot.example/jobs/12?t=abc) and https://slack.example/x',
    );
  });

  it('decodes entities last, so escaped text never becomes a mention or a link', () => {
    expect(plain('node said &lt;@U0EVE&gt; &amp; &lt;http://evil|click&gt;')).toBe(
      'node said <@U0EVE> & <http://evil|click>',
    );
  });

  it('plain output (a pipe, a log file) has no escape codes and no bold stars', () => {
    const text = plain('*up dev* · job #3\nStatus: ✅ succeeded, `site.yml` ran');
    expect(text).toBe('up dev · job #3\nStatus: ✅ succeeded, `site.yml` ran');
    expect(text).not.toContain('\u001b');
  });

  it('on a TTY: bold, code in colour and the states coloured', () => {
    expect(tty('*up dev* ❌ failed, `x`')).toBe(
      '\u001b[1mup dev\u001b[22m \u001b[31m❌\u001b[39m failed, \u001b[36mx\u001b[39m',
    );
  });

  it('keeps stars that are not bold (globs, arithmetic) as typed', () => {
    expect(plain('hosts k3s_* and 2 * 3 = 6')).toBe('hosts k3s_* and 2 * 3 = 6');
  });

  it('sets a code block on its own indented lines, leaving the markup inside alone', () => {
    expect(plain('Plan:\n```1. *check* &lt;x&gt;\n2. <@U0BOB>```\nthen go')).toBe(
      'Plan:\n\n    1. *check* <x>\n    2. <@U0BOB>\n\nthen go',
    );
  });
});
