/**
 * A Block Kit view or message as a plain HTML page, close enough to Slack's look for a screenshot
 * of what the bot published (the App Home picture in docs/operators.md). It draws the block types the bot
 * sends: header, section (text, fields, button accessory), context, actions, divider.
 */
export function renderBlocksHtml(title: string, blocks: readonly unknown[]): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>`,
    `<div class="tab">${escapeHtml(title)}</div>`,
    ...blocks.map((block) => renderBlock(block as Block)),
    '</main></body></html>',
  ].join('\n');
}

interface TextObject {
  readonly type: 'mrkdwn' | 'plain_text';
  readonly text: string;
}

interface Block {
  readonly type: string;
  readonly text?: TextObject;
  readonly fields?: readonly TextObject[];
  readonly elements?: readonly (TextObject | Button)[];
  readonly accessory?: Button;
}

interface Button {
  readonly type: 'button';
  readonly text: TextObject;
  readonly style?: 'primary' | 'danger';
  readonly url?: string;
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case 'header':
      return `<h2>${renderText(block.text)}</h2>`;
    case 'divider':
      return '<hr>';
    case 'context':
      return `<div class="context">${(block.elements ?? []).map((element) => renderText(element as TextObject)).join(' · ')}</div>`;
    case 'actions':
      return `<div class="actions">${(block.elements ?? []).map((element) => renderButton(element as Button)).join('')}</div>`;
    case 'section': {
      const fields = block.fields?.length
        ? `<div class="fields">${block.fields.map((field) => `<div>${renderText(field)}</div>`).join('')}</div>`
        : '';
      const accessory = block.accessory?.type === 'button' ? renderButton(block.accessory) : '';
      return `<section><div class="body">${renderText(block.text)}${fields}</div>${accessory}</section>`;
    }
    default:
      return `<div class="unknown">[${escapeHtml(block.type)} block]</div>`;
  }
}

function renderButton(button: Button): string {
  const style = button.style ? ` ${button.style}` : '';
  return `<span class="button${style}">${renderText(button.text)}</span>`;
}

function renderText(text: TextObject | undefined): string {
  if (!text) return '';
  return text.type === 'plain_text' ? escapeHtml(text.text) : renderMrkdwn(text.text);
}

/** Slack's mrkdwn: `<…>` links and mentions, then code, bold, italic and strike on the escaped rest. */
export function renderMrkdwn(source: string): string {
  const parts = source.split(/(<[^<>]+>)/);
  return parts
    .map((part) => (/^<[^<>]+>$/.test(part) ? renderAngle(part.slice(1, -1)) : renderInline(part)))
    .join('')
    .replace(/\n/g, '<br>');
}

function renderAngle(inner: string): string {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@')) return `<b class="mention">@${escapeHtml(label ?? target.slice(1))}</b>`;
  if (target.startsWith('#')) return `<b class="mention">#${escapeHtml(label ?? target.slice(1))}</b>`;
  // A date shows its fallback text where no client formats it (`<!date^1700000000^{date}|fallback>`).
  if (target.startsWith('!date^')) return escapeHtml(decodeEntities(label ?? ''));
  if (target.startsWith('!')) return `<b class="mention">@${escapeHtml(label ?? target.slice(1))}</b>`;
  return `<a>${escapeHtml(decodeEntities(label ?? target))}</a>`;
}

function renderInline(text: string): string {
  return escapeHtml(decodeEntities(text))
    .replace(/```([\s\S]*?)```/g, '<pre>$1</pre>')
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/(^|[\s(])\*([^*\n]+)\*/g, '$1<b>$2</b>')
    .replace(/(^|[\s(])_([^_\n]+)_/g, '$1<i>$2</i>')
    .replace(/(^|[\s(])~([^~\n]+)~/g, '$1<s>$2</s>');
}

/** Slack escapes only these three in message text. */
function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `
body { margin: 0; background: #fff; font: 15px/1.46 -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d1c1d; }
main { max-width: 760px; padding: 16px 24px; }
.tab { font-weight: 700; font-size: 18px; padding-bottom: 8px; border-bottom: 2px solid #1264a3; margin-bottom: 12px; }
h2 { font-size: 17px; margin: 16px 0 6px; }
section { display: flex; justify-content: space-between; gap: 16px; margin: 6px 0; }
.fields { display: grid; grid-template-columns: 1fr 1fr; gap: 4px 16px; margin-top: 4px; }
.context { color: #616061; font-size: 13px; margin: 4px 0; }
.actions { margin: 8px 0; display: flex; gap: 8px; }
.button { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px; font-weight: 700; font-size: 14px; white-space: nowrap; align-self: flex-start; }
.button.primary { background: #007a5a; color: #fff; border-color: #007a5a; }
.button.danger { color: #e01e5a; border-color: #e01e5a; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; background: #f6f6f6; border: 1px solid #ddd; border-radius: 3px; padding: 0 3px; }
pre { padding: 6px; white-space: pre-wrap; }
.mention { color: #1264a3; background: #e8f5fa; border-radius: 3px; padding: 0 2px; font-weight: 400; }
a { color: #1264a3; }
hr { border: 0; border-top: 1px solid #ddd; margin: 12px 0; }
`;
