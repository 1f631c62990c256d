import type { Block } from './fake-slack-types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Slack stores blocks with a block_id and interactive elements with an action_id, inventing them
 * when the app gave none; block_actions payloads then carry those ids, so the fake must too.
 */
export function normalizeBlocks(blocks: unknown, newId: () => string): Block[] | undefined {
  if (!Array.isArray(blocks)) return undefined;
  return blocks.filter(isRecord).map((block) => {
    const copy: Block = { ...block, block_id: typeof block.block_id === 'string' ? block.block_id : newId() };
    if (Array.isArray(block.elements) && block.type === 'actions') {
      copy.elements = block.elements.filter(isRecord).map((element) => withActionId(element, newId));
    }
    if (isRecord(block.accessory)) copy.accessory = withActionId(block.accessory, newId);
    return copy;
  });
}

function withActionId(element: Record<string, unknown>, newId: () => string): Record<string, unknown> {
  return typeof element.action_id === 'string' ? { ...element } : { ...element, action_id: newId() };
}
