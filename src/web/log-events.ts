import type { JobLogChunk } from '../service/index.js';

/**
 * Lines as `lines` events of at most `maxBytes` each (a single longer line is an event of its own):
 * one `data:` per line of text, since a line break inside an entry would end the event early, and
 * the stream id of the event's last line as `id:`, where a reconnecting browser resumes.
 */
export function logEvents(lines: JobLogChunk['lines'], maxBytes: number): string[] {
  const events: string[] = [];
  let data = '';
  let bytes = 0;
  let lastId = '';
  const flush = () => {
    if (data) events.push(`id: ${lastId}\nevent: lines\n${data}\n`);
    data = '';
    bytes = 0;
  };
  for (const line of lines) {
    const part = line.text
      .split(/\r\n|\r|\n/)
      .map((text) => `data: ${text}\n`)
      .join('');
    const size = Buffer.byteLength(part);
    if (bytes > 0 && bytes + size > maxBytes) flush();
    data += part;
    bytes += size;
    lastId = line.id;
  }
  flush();
  return events;
}
