import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createAckFirst } from '../../src/bot/create-ack-first.js';

/** One turn of the event loop: the gate's own turn was scheduled before this one, so it has run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Three answers parked behind their acks; `went` lists the ones let go, in order. */
function parkThree(acks: ReturnType<typeof createAckFirst>) {
  const went: string[] = [];
  for (const name of ['first answer', 'second answer', 'third answer'])
    void acks.afterAcks().then(() => went.push(name));
  return went;
}

describe('acks go ahead of the work that follows them', () => {
  it('with no ack owed, every answer goes in the next turn, after the input ready now is read', async () => {
    const acks = createAckFirst();
    const went = parkThree(acks);
    await Promise.resolve();
    expect(went).toEqual([]);
    await nextTurn();
    expect(went).toEqual(['first answer', 'second answer', 'third answer']);
  });

  it('while a request waits for its ack, answers go one per turn; all the rest once it is written', async () => {
    const acks = createAckFirst();
    const request = new EventEmitter();
    acks.owe(request);
    const went = parkThree(acks);
    await nextTurn();
    // A request read in this turn is handled before the next answer starts: a flood slows answers, never stops them.
    expect(went).toEqual(['first answer']);
    await nextTurn();
    expect(went).toEqual(['first answer', 'second answer']);
    request.emit('finish');
    const more = parkThree(acks);
    await nextTurn();
    expect([...went, ...more]).toEqual([
      'first answer',
      'second answer',
      'third answer',
      'first answer',
      'second answer',
      'third answer',
    ]);
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
    // `other` still waits: one per turn, not all three.
    expect(went).toEqual(['first answer']);
    other.emit('finish');
    await nextTurn();
    expect(went).toHaveLength(3);
  });
});
