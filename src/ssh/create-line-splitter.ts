/** Longest line handed on; the rest of a longer line is counted and dropped (a marker says how much). */
export const MAX_LINE_BYTES = 64 * 1024;

export interface LineSplitter {
  /** The complete lines the chunk finishes (without `\n` or `\r\n`). */
  push(chunk: Buffer): string[];
  /** The last line, when the output did not end with a newline. */
  end(): string[];
}

/**
 * Splits a byte stream into UTF-8 lines. It works on bytes, so a character or a CRLF cut by a chunk
 * edge stays whole, and a runaway line (a minified blob, a progress bar) cannot grow memory unbounded.
 */
export function createLineSplitter(maxLineBytes = MAX_LINE_BYTES): LineSplitter {
  let parts: Buffer[] = [];
  let kept = 0;
  let dropped = 0;

  const take = (piece: Buffer): void => {
    const room = maxLineBytes - kept;
    if (piece.length <= room) {
      parts.push(piece);
      kept += piece.length;
      return;
    }
    parts.push(piece.subarray(0, room));
    kept = maxLineBytes;
    dropped += piece.length - room;
  };

  const finish = (): string => {
    let bytes = Buffer.concat(parts, kept);
    parts = [];
    kept = 0;
    if (dropped === 0) {
      if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
      return bytes.toString('utf8');
    }
    const cut = completeCharactersEnd(bytes);
    const more = dropped + bytes.length - cut;
    dropped = 0;
    return `${bytes.subarray(0, cut).toString('utf8')} [... line truncated, ${more} more bytes]`;
  };

  return {
    push(chunk) {
      const lines: string[] = [];
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        take(chunk.subarray(start, newline));
        lines.push(finish());
        start = newline + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
      return lines;
    },
    end() {
      return kept > 0 || dropped > 0 ? [finish()] : [];
    },
  };
}

/** Where the bytes stop holding only whole UTF-8 characters (a cut may split the last one). */
function completeCharactersEnd(bytes: Buffer): number {
  let lead = bytes.length - 1;
  while (lead > 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  const first = bytes[lead] ?? 0;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > bytes.length ? lead : bytes.length;
}
