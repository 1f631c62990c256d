import { EventEmitter } from 'node:events';
import type { Client, ClientChannel } from 'ssh2';
import { describe, expect, it, vi } from 'vitest';
import type { ExecRequest } from '../../src/lifecycle/ports/remote-shell.js';
import { canEnter } from '../../src/ssh/command-phase.js';
import { CommandRun, type RunOutcome } from '../../src/ssh/command-run.js';

/** An ssh2 channel as far as a run uses it. */
class FakeChannel extends EventEmitter {
  readonly stderr = Object.assign(new EventEmitter(), { pause: vi.fn(), resume: vi.fn() });
  readonly pause = vi.fn();
  readonly resume = vi.fn();
  readonly end = vi.fn();
  readonly destroy = vi.fn();

  /** The remote command ended: ssh2 reports exit, then the pipes and the channel close. */
  finish(exitCode: number): void {
    this.emit('exit', exitCode);
    this.stderr.emit('end');
    this.emit('close');
  }
}

/** An ssh2 client whose exec answers only when the test says so. */
class FakeClient extends EventEmitter {
  answer: ((error: Error | undefined, channel: ClientChannel) => void) | undefined;
  readonly destroy = vi.fn();
  exec(_command: string, callback: (error: Error | undefined, channel: ClientChannel) => void): void {
    this.answer = callback;
  }
  open(): FakeChannel {
    const channel = new FakeChannel();
    this.answer?.(undefined, channel as unknown as ClientChannel);
    return channel;
  }
}

function startRun(request: Partial<ExecRequest> = {}, endGraceMs = 1_000) {
  const client = new FakeClient();
  let result: { outcome?: RunOutcome; error?: unknown } | undefined;
  const run = new CommandRun(
    client as unknown as Client,
    { argv: ['ansible-playbook'], timeoutMs: 60_000, ...request },
    {
      target: {
        label: 'ops',
        host: '127.0.0.1',
        port: 22,
        user: 'u',
        privateKeyPath: 'k',
        hostKey: { fingerprint: 'f' },
      },
      logger: { debug: () => {}, warn: () => {} },
      endGraceMs,
    },
    { resolve: (outcome) => (result = { outcome }), reject: (error) => (result = { error }) },
  );
  run.start('ansible-playbook site.yml');
  return { client, run, settled: () => result };
}

describe('a remote command run through its phases', () => {
  it('starting → running → settled: the output is handed on, then the exit is the outcome', async () => {
    const lines: string[] = [];
    const { client, run, settled } = startRun({ onLine: (line) => void lines.push(line) });
    expect(run.phaseName).toBe('starting');
    const channel = client.open();
    expect(run.phaseName).toBe('running');
    channel.emit('data', Buffer.from('one\ntw'));
    channel.emit('data', Buffer.from('o'));
    channel.finish(0);
    await vi.waitFor(() => expect(run.phaseName).toBe('settled'));
    expect(lines).toEqual(['one', 'two']);
    expect(settled()).toEqual({ outcome: { exitCode: 0, signal: null } });
  });

  it('cancelled while starting: settles at once, keeps the shared connection, and a late session is closed', () => {
    const controller = new AbortController();
    const { client, run, settled } = startRun({ signal: controller.signal });
    controller.abort();
    expect(run.phaseName).toBe('settled');
    expect(client.destroy).not.toHaveBeenCalled();
    expect(client.listenerCount('close') + client.listenerCount('error')).toBe(0);
    expect(settled()?.error).toMatchObject({ code: 'CANCELLED' });
    expect(client.open().destroy).toHaveBeenCalled();
  });

  it('running → stopping → settled: a timeout sends EOF and waits for the channel to close', async () => {
    const { client, run, settled } = startRun({ timeoutMs: 5 });
    const channel = client.open();
    await vi.waitFor(() => expect(run.phaseName).toBe('stopping'));
    expect(channel.end).toHaveBeenCalled();
    expect(settled()).toBeUndefined();
    channel.finish(143);
    await vi.waitFor(() => expect(run.phaseName).toBe('settled'));
    const error = settled()?.error as Error & { details: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'COMMAND_TIMEOUT', details: { remoteEnded: true } });
    expect(error.message).not.toContain('not confirmed');
  });

  it('stopping → settled by the grace: only its channel is dropped (the connection is shared) and the end is unconfirmed', async () => {
    const { client, run, settled } = startRun({ timeoutMs: 5 }, 10);
    const channel = client.open();
    await vi.waitFor(() => expect(run.phaseName).toBe('settled'));
    expect(channel.destroy).toHaveBeenCalled();
    expect(client.destroy).not.toHaveBeenCalled();
    expect(settled()?.error).toMatchObject({
      message: expect.stringContaining('(its end was not confirmed)'),
    });
  });

  it('settled is final and stopping never goes back to running', () => {
    expect(canEnter({ name: 'settled' }, { name: 'running' })).toBe(false);
    expect(canEnter({ name: 'settled' }, { name: 'settled' })).toBe(false);
    expect(canEnter({ name: 'stopping', reason: { error: 1 } }, { name: 'running' })).toBe(false);
    expect(canEnter({ name: 'starting' }, { name: 'settled' })).toBe(true);
  });
});
