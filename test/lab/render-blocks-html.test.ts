import { describe, expect, it } from 'vitest';
import { renderBlocksHtml, renderMrkdwn } from './fake-slack/render-blocks-html.js';

describe('the fake Slack draws published blocks as HTML (for screenshots)', () => {
  it('renders mrkdwn as Slack shows it: bold, code, mentions, labelled links, escaped text', () => {
    expect(renderMrkdwn('*dev* held by <@U0BOB> · `up dev` <https://x.test/j|job page>')).toBe(
      '<b>dev</b> held by <b class="mention">@U0BOB</b> · <code>up dev</code> <a>job page</a>',
    );
    expect(renderMrkdwn('a &lt;script&gt; &amp; more\nline')).toBe('a &lt;script&gt; &amp; more<br>line');
    expect(renderMrkdwn('since <!date^1700000000^{date_short} {time}|2023-11-14 22:13 UTC>')).toBe(
      'since 2023-11-14 22:13 UTC',
    );
  });

  it('draws every block type the bot publishes, and names one it does not know', () => {
    const html = renderBlocksHtml('Home', [
      { type: 'header', text: { type: 'plain_text', text: 'dev' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*free*' },
        accessory: { type: 'button', text: { type: 'plain_text', text: 'Verify now' }, style: 'primary' },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'last verify ✅' }] },
      { type: 'divider' },
      { type: 'image' },
    ]);
    expect(html).toContain('<h2>dev</h2>');
    expect(html).toContain('<span class="button primary">Verify now</span>');
    expect(html).toContain('<div class="context">last verify ✅</div>');
    expect(html).toContain('<hr>');
    expect(html).toContain('[image block]');
  });
});
