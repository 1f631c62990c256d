/** Echoes user text back safely: bounded, and with control characters made visible. */
export function printable(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown).slice(1, -1);
}
