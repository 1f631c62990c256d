import { describe, expect, it } from 'vitest';
import { escapeMrkdwn } from '../../src/bot/escape-mrkdwn.js';
import { unescapeMrkdwn } from '../../src/console/unescape-mrkdwn.js';

describe('escapeMrkdwn', () => {
  it('escapes &, < and > and nothing else', () => {
    expect(escapeMrkdwn('<!channel> <http://evil.example|click> & *bold* `code` <@U0X>')).toBe(
      '&lt;!channel&gt; &lt;http://evil.example|click&gt; &amp; *bold* `code` &lt;@U0X&gt;',
    );
    expect(escapeMrkdwn('&lt;')).toBe('&amp;lt;');
  });

  it('is undone for the console, whatever the text', () => {
    for (const text of ['<!channel> & <http://x|y>', '&lt;', '&amp;gt;', 'a > b'])
      expect(unescapeMrkdwn(escapeMrkdwn(text))).toBe(text);
  });
});
