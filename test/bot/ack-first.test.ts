import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAckFirst, MAX_WAIT_MS } from '../../src/bot/create-ack-first.js';

/** One turn of the event loop: the gate's own turn was scheduled before this one, so it has run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Three answers parked behind their acks; the returned list names the ones let go, in order. */
function parkThree(acks: ReturnType<typeof createAckFirst>) {
  const went: string[] = [];
  for (const name of ['first answer', 'second answer', 'third answer'])
    void acks.afterAcks().then(() => went.push(name));
  return went;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('acks go ahead of the work that follows them', () => {
  it('with no ack owed, every answer goes in the next turn, after the input ready now is read', async () => {
    const acks = createAckFirst();
    const went = parkThree(acks);
    await Promise.resolve();
    expect(went).toEqual([]);
    await nextTurn();
    expect(went).toEqual(['first answer', 'second answer', 'third answer']);
  });

  it('no answer goes while another request waits for its ack; all go once the last ack is written', async () => {
    const acks = createAckFirst();
    const first = new EventEmitter();
    const second = new EventEmitter();
    acks.owe(first);
    acks.owe(second);
    const went = parkThree(acks);
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(went).toEqual([]);
    first.emit('finish');
    await nextTurn();
    expect(went).toEqual([]);
    second.emit('finish');
    await nextTurn();
    expect(went).toEqual(['first answer', 'second answer', 'third answer']);
  });

  it('a request whose caller hung up owes no ack, and a written one is not paid twice by its close', async () => {
    const acks = createAckFirst();
    const gone = new EventEmitter();
    const written = new EventEmitter();
    const other = new EventEmitter();
    acks.owe(gone);
    acks.owe(written);
    acks.owe(other);
    gone.emit('close');
    written.emit('finish');
    written.emit('close');
    const went = parkThree(acks);
    await nextTurn();
    // `other` still waits for its ack.
    expect(went).toEqual([]);
    other.emit('finish');
    await nextTurn();
    expect(went).toHaveLength(3);
  });

  it('a flood that never lets every ack out holds an answer no longer than the deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const acks = createAckFirst();
    acks.owe(new EventEmitter());
    const went = parkThree(acks);
    await nextTurn();
    vi.advanceTimersByTime(MAX_WAIT_MS - 1);
    await Promise.resolve();
    expect(went).toEqual([]);
    vi.advanceTimersByTime(1);
    await Promise.resolve();
    expect(went).toEqual(['first answer', 'second answer', 'third answer']);
  });
});
