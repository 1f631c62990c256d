import type { Block } from './fake-slack-types.js';

function textOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const text = (value as { text?: unknown }).text;
  return typeof text === 'string' ? text : undefined;
}

function buttonsOf(block: Block): Array<Record<string, unknown>> {
  const elements = Array.isArray(block.elements) ? block.elements : [];
  return [...elements, block.accessory].filter(
    (e): e is Record<string, unknown> =>
      typeof e === 'object' && e !== null && (e as Block).type === 'button',
  );
}

/**
 * The Block Kit limits Slack enforces with `invalid_blocks` (platform-facts: 50 blocks in a message, 100 in a Home view, section text
 * ≤ 3000, button text ≤ 75, value ≤ 2000; a button's confirmation dialog object: title ≤ 100, text ≤ 300,
 * confirm and deny ≤ 30), so a report that would be refused in production is refused here.
 */
export function validateBlocks(blocks: Block[], maxBlocks = 50): string | undefined {
  if (blocks.length > maxBlocks) return `more than ${maxBlocks} blocks (${blocks.length})`;
  for (const [index, block] of blocks.entries()) {
    if (typeof block.type !== 'string') return `block ${index} has no type`;
    const text = textOf(block.text);
    if (block.type === 'section' && text !== undefined && text.length > 3000) {
      return `block ${index}: section text longer than 3000 (${text.length})`;
    }
    if (block.type === 'header' && text !== undefined && text.length > 150) {
      return `block ${index}: header text longer than 150 (${text.length})`;
    }
    for (const button of buttonsOf(block)) {
      const label = textOf(button.text) ?? '';
      if (label.length > 75) return `block ${index}: button text longer than 75 (${label.length})`;
      if (typeof button.value === 'string' && button.value.length > 2000) {
        return `block ${index}: button value longer than 2000 (${button.value.length})`;
      }
      const confirm = button.confirm as Record<string, unknown> | undefined;
      if (confirm) {
        const limits = { title: 100, text: 300, confirm: 30, deny: 30 };
        for (const [field, max] of Object.entries(limits)) {
          const length = textOf(confirm[field])?.length;
          if (length === undefined || length > max) {
            return `block ${index}: confirm ${field} missing or longer than ${max} (${length})`;
          }
        }
      }
    }
  }
  return undefined;
}
