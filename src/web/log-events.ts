import type { JobLogChunk } from '../service/index.js';

/** The millisecond part of a stream id (`ms-seq`): when Redis stored the entry. */
const msOf = (id: string) => id.slice(0, id.indexOf('-'));

/**
 * Lines as `lines` events of at most `maxBytes` each (a single longer line is an event of its own):
 * one `data:` per line of text, since a line break inside an entry would end the event early, and
 * the stream id of the event's last line as `id:`, where a reconnecting browser resumes. An event
 * holds lines of one millisecond only, so the id's time is each of its lines' time (a batch of
 * output is stored in one millisecond: still about one event per batch). A step's start is a
 * `step` event of its own, between the lines before and after it.
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
    if (line.stepStarts !== undefined) {
      flush();
      events.push(`id: ${line.id}\nevent: step\ndata: ${line.stepStarts}\n\n`);
      lastId = line.id;
      continue;
    }
    const part = line.text
      .split(/\r\n|\r|\n/)
      .map((text) => `data: ${text}\n`)
      .join('');
    const size = Buffer.byteLength(part);
    if (bytes > 0 && (bytes + size > maxBytes || msOf(line.id) !== msOf(lastId))) flush();
    data += part;
    bytes += size;
    lastId = line.id;
  }
  flush();
  return events;
}
