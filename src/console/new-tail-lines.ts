const FENCED = /^```([\s\S]*)```$/;

/**
 * A live output tail is a code block edited in place, a window on the step's last lines: what the
 * edit shows that the last one did not, as a code block, so a terminal scrolls like `tail -f`
 * instead of reprinting the window; undefined when it shows nothing new. The longest end of the
 * old window that starts the new one is what both show; text that is no such window is new.
 */
export function newTailLines(before: string, after: string): string | undefined {
  const old = FENCED.exec(before)?.[1]?.split('\n');
  const next = FENCED.exec(after)?.[1]?.split('\n');
  if (!old || !next) return after;
  for (let start = 0; start < old.length; start++) {
    const overlap = old.length - start;
    if (overlap > next.length) continue;
    if (old.slice(start).every((line, index) => line === next[index])) {
      const added = next.slice(overlap);
      return added.length === 0 ? undefined : `\`\`\`${added.join('\n')}\`\`\``;
    }
  }
  return after;
}
