/** What stands in for a secret. */
export const MASK = '[REDACTED]';
/** What is left of a text the redactor could not handle: all of it is hidden, never passed through. */
export const UNREDACTABLE = '[REDACTED: unredactable text]';
/** Past this many characters a line is not read: the rest is masked, saying how much. */
export const MAX_CHECKED_LINE = 65_536;
export const uncheckedTail = (characters: number) => `[REDACTED: ${characters} more characters not checked]`;
