/** The one word a verb about a job takes: its number, with or without `#`; undefined for anything else. */
export function jobNumberWord(words: readonly string[]): string | undefined {
  const match = words.length === 1 ? /^#?(\d{1,9})$/.exec(words[0]!) : null;
  return match?.[1];
}
