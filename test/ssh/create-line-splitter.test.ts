import { describe, expect, it } from 'vitest';
import { createLineSplitter } from '../../src/ssh/create-line-splitter.js';

function split(chunks: readonly (string | Buffer)[], maxLineBytes?: number): string[] {
  const splitter = createLineSplitter(maxLineBytes);
  const lines = chunks.flatMap((chunk) => splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  return [...lines, ...splitter.end()];
}

describe('createLineSplitter', () => {
  it('splits lines across chunk edges and keeps a last line without newline', () => {
    expect(split(['one\ntw', 'o\n', '\nthr', 'ee'])).toEqual(['one', 'two', '', 'three']);
  });

  it('drops the CR of CRLF, also when CR and LF arrive in different chunks', () => {
    expect(split(['a\r\nb\r', '\nc\r'])).toEqual(['a', 'b', 'c']);
  });

  it('keeps a CR that is not at the end of a line', () => {
    expect(split(['progress 10%\rprogress 20%\n'])).toEqual(['progress 10%\rprogress 20%']);
  });

  it('keeps a multi-byte character cut by a chunk edge whole', () => {
    const bytes = Buffer.from('héllo wörld ✓\n');
    const pieces = Array.from(bytes, (byte) => Buffer.from([byte]));
    expect(split(pieces)).toEqual(['héllo wörld ✓']);
  });

  it('emits nothing for empty output and no extra line after a final newline', () => {
    expect(split([])).toEqual([]);
    expect(split(['x\n'])).toEqual(['x']);
  });

  it('caps a long line, says how much was dropped, and goes on with the next line', () => {
    const lines = split(['abcdefghij', 'klmnop\nnext\n'], 8);
    expect(lines).toEqual(['abcdefgh [... line truncated, 8 more bytes]', 'next']);
  });

  it('does not cut a multi-byte character in half when capping', () => {
    // "aaaaaaa✓" is 10 bytes; a cap of 8 would split the 3-byte check mark.
    const [line] = split(['aaaaaaa✓b\n'], 8);
    expect(line).toBe('aaaaaaa [... line truncated, 4 more bytes]');
  });
});
