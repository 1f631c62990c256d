import { describe, expect, it } from 'vitest';
import { logEvents } from '../../src/web/log-events.js';

describe("the log's Server-Sent Events", () => {
  it("gives a step's start an event of its own, between the lines before and after it", () => {
    const events = logEvents(
      [
        { id: '1700000000000-0', text: 'before' },
        { id: '1700000000000-1', text: '', stepStarts: 'playbook' },
        { id: '1700000000000-2', text: 'PLAY [all] ***' },
      ],
      64 * 1024,
    );
    expect(events).toEqual([
      'id: 1700000000000-0\nevent: lines\ndata: before\n\n',
      'id: 1700000000000-1\nevent: step\ndata: playbook\n\n',
      'id: 1700000000000-2\nevent: lines\ndata: PLAY [all] ***\n\n',
    ]);
  });

  it('holds the lines of one millisecond per event, so the id tells each line its time', () => {
    const events = logEvents(
      [
        { id: '1700000000000-0', text: 'a' },
        { id: '1700000000000-1', text: 'b' },
        { id: '1700000000007-0', text: 'c' },
      ],
      64 * 1024,
    );
    expect(events).toEqual([
      'id: 1700000000000-1\nevent: lines\ndata: a\ndata: b\n\n',
      'id: 1700000000007-0\nevent: lines\ndata: c\n\n',
    ]);
  });
});
