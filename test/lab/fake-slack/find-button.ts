import type { Block, SlackMessage } from './fake-slack-types.js';

export type ButtonSelector = { text: string } | { actionId: string };

export interface FoundButton {
  blockId: string;
  actionId: string;
  text: string;
  value: string | undefined;
  style: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asButton(blockId: string, element: unknown): FoundButton | undefined {
  if (!isRecord(element) || element.type !== 'button') return undefined;
  const label = isRecord(element.text) && typeof element.text.text === 'string' ? element.text.text : '';
  return {
    blockId,
    actionId: String(element.action_id),
    text: label,
    value: typeof element.value === 'string' ? element.value : undefined,
    style: typeof element.style === 'string' ? element.style : undefined,
  };
}

/** Buttons in the order a person sees them: actions blocks and section accessories. */
export function listButtons(message: Pick<SlackMessage, 'blocks'>): FoundButton[] {
  return (message.blocks ?? []).flatMap((block: Block) => {
    const blockId = String(block.block_id);
    const elements = block.type === 'actions' && Array.isArray(block.elements) ? block.elements : [];
    return [...elements, block.accessory]
      .map((element) => asButton(blockId, element))
      .filter((b): b is FoundButton => b !== undefined);
  });
}

/** By visible label (exact, then ignoring case and surrounding spaces) or by action_id. */
export function findButton(
  message: Pick<SlackMessage, 'blocks'>,
  selector: ButtonSelector,
): FoundButton | undefined {
  const buttons = listButtons(message);
  if ('actionId' in selector) return buttons.find((b) => b.actionId === selector.actionId);
  const wanted = selector.text.trim().toLowerCase();
  return (
    buttons.find((b) => b.text === selector.text) ??
    buttons.find((b) => b.text.trim().toLowerCase() === wanted)
  );
}

export function describeButtons(message: Pick<SlackMessage, 'blocks'>): string {
  const buttons = listButtons(message);
  if (buttons.length === 0) return 'no buttons';
  return buttons.map((b) => `"${b.text}" (action_id ${b.actionId})`).join(', ');
}

/** Every string a person can read in the message: its text and all text inside its blocks. */
export function visibleText(message: Pick<SlackMessage, 'blocks'> & { text?: string }): string {
  const parts: string[] = message.text === undefined ? [] : [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') parts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return parts.join('\n');
}
