import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DetachedRequest } from '../../src/lifecycle/ports/remote-shell.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { detachArgv, RUNNER_SCRIPT, START_SCRIPT } from '../../src/ssh/detach-scripts.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { labMs } from '../support/lab-time.js';
import { waitFor } from '../support/wait-for.js';
import { labTarget } from './lab-target.js';
import { processIsRunning } from './process-is-running.js';

/**
 * A detached command outlives the connection that started it: the worker only follows its folder. The
 * command here prints a line, waits for a file the test writes, then prints the rest and exits 3.
 */
describe('detached remote commands', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell({ keepaliveIntervalMs: 1_000 });
  let runs = 0;

  beforeAll(async () => {
    lab = await startSshd();
  });
  afterAll(async () => {
    await lab?.stop();
  });

  /** Runs the start script alone, as a worker SIGKILLed right after starting its command did. */
  async function startWithoutFollowing(request: DetachedRequest): Promise<void> {
    const result = await shell.exec(labTarget(lab), {
      argv: detachArgv(START_SCRIPT, [RUNNER_SCRIPT, request.folder, ...request.argv]),
      cwd: request.cwd,
      env: request.env,
      timeoutMs: labMs(10_000),
    });
    expect(result.exitCode).toBe(0);
  }

  /** Starts a gated command and follows it, noting every connection lost, until its first line is shown. */
  async function followFromItsFirstLine() {
    const command = gatedCommand();
    const lost: string[] = [];
    const following = shell.runDetached(
      labTarget(lab),
      command.request({ onLost: (error) => void lost.push(error.message) }),
    );
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    return { command, lost, following };
  }

  const GATED =
    'echo "first line"; while [ ! -f "$1" ]; do sleep 0.1; done; echo "second line"; echo "to stderr" >&2; exit 3';

  /** A command that prints, waits at its gate (`$1`) until the test opens it, then goes on. */
  function gatedCommand(script = GATED) {
    const run = ++runs;
    const folder = join(lab.dir, 'repo', '.cache', 'cluster-bot', `job-${run}`, 'step');
    const gate = join(lab.dir, `gate-${run}`);
    const lines: string[] = [];
    const request = (overrides: Partial<DetachedRequest> = {}): DetachedRequest => ({
      argv: ['sh', '-c', script, 'gated', gate],
      cwd: lab.dir,
      env: { LAB_WORD: 'quoted $(not run)' },
      timeoutMs: 60_000,
      folder,
      fromLine: 0,
      attach: false,
      onLine: (line) => {
        lines.push(line);
      },
      ...overrides,
    });
    const file = (name: string) => readFile(join(folder, name), 'utf8').catch(() => undefined);
    return { folder, gate, lines, request, file, open: () => writeFile(gate, '') };
  }

  it('runs the command in its folder and takes its exit code from rc', async () => {
    const command = gatedCommand();
    const running = shell.runDetached(labTarget(lab), command.request());
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    await command.open();
    expect(await running).toMatchObject({ exitCode: 3 });
    expect(command.lines).toEqual(['first line', 'second line', 'to stderr']);
    expect(await command.file('out')).toBe('first line\nsecond line\nto stderr\n');
    expect(await command.file('rc')).toBe('3\n');
    expect(await shell.probeDetached(labTarget(lab), command.folder, 10_000)).toBe('ended');
  });

  it('goes on when the follower’s connection dies: the follower reaches it again and shows the rest once', async () => {
    const { command, lost, following } = await followFromItsFirstLine();
    const runner = Number(await command.file('pid'));
    await lab.killSessions();
    await waitFor('the lost connection', () => lost.length > 0);
    expect(await processIsRunning(runner)).toBe(true);
    await command.open();
    // Still following: no failure while the command runs, its exit code read from rc.
    expect(await following).toMatchObject({ exitCode: 3 });
    expect(command.lines).toEqual(['first line', 'second line', 'to stderr']);
    expect(lost[0]).toContain('was lost while sh was running');
    // Started once.
    expect((await lab.commands()).filter((line) => line.includes(command.gate))).toHaveLength(1);
  });

  it('a line the dropped connection cut mid-way is never shown cut: the follower shows it once, whole', async () => {
    // One write: the first line and the start of the next reach the follower in one piece.
    const command = gatedCommand(
      `printf 'first line\\nhalf of a '; while [ ! -f "$1" ]; do sleep 0.1; done; printf 'line\\n'; exit 3`,
    );
    const lost: string[] = [];
    const following = shell.runDetached(
      labTarget(lab),
      command.request({ onLost: (error) => void lost.push(error.message) }),
    );
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    await lab.killSessions();
    await waitFor('the lost connection', () => lost.length > 0);
    await command.open();
    expect(await following).toMatchObject({ exitCode: 3 });
    expect(command.lines).toEqual(['first line', 'half of a line']);
  });

  it('follows through an sshd restart: unreachable for a while, then reached again', async () => {
    const { command, lost, following } = await followFromItsFirstLine();
    await lab.kill();
    await lab.killSessions();
    try {
      // The second loss is a reconnect refused: the listener is down, the follower keeps trying.
      await waitFor('a refused reconnect', () => lost.length >= 2, { timeoutMs: 10_000 });
      await command.open();
      await waitFor('the command to end', async () => (await command.file('rc')) === '3\n' || undefined);
    } finally {
      await lab.revive();
    }
    expect(await following).toMatchObject({ exitCode: 3 });
    expect(command.lines).toEqual(['first line', 'second line', 'to stderr']);
    expect(lost[1]).toContain('unreachable');
  });

  it('fails at its timeout when the host stays unreachable, saying the command could not be ended', async () => {
    const command = gatedCommand();
    const following = shell
      .runDetached(labTarget(lab), command.request({ timeoutMs: labMs(2_000) }))
      .catch((error: unknown) => error);
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    await lab.kill();
    await lab.killSessions();
    try {
      expect(await following).toMatchObject({
        code: 'COMMAND_TIMEOUT',
        message: expect.stringMatching(/the last of it unreachable .*; ending it failed/),
      });
    } finally {
      await lab.revive();
      await command.open();
    }
  });

  it('re-attaches to a command whose follower died, and a second start of its folder is refused', async () => {
    const command = gatedCommand();
    // A worker that started it and was SIGKILLed: the start ran, nobody follows.
    await startWithoutFollowing(command.request());
    await waitFor('the first line', async () => (await command.file('out'))?.includes('first line\n'));
    expect(await shell.probeDetached(labTarget(lab), command.folder, 10_000)).toBe('running');
    const later: string[] = [];
    const second = shell.runDetached(
      labTarget(lab),
      command.request({ attach: true, fromLine: 1, onLine: (line) => void later.push(line) }),
    );
    await command.open();
    expect(await second).toMatchObject({ exitCode: 3 });
    expect(later).toEqual(['second line', 'to stderr']);
    await expect(shell.runDetached(labTarget(lab), command.request())).rejects.toMatchObject({
      code: 'COMMAND_FAILED',
      message: expect.stringContaining('already exists: it was started once, and is never started twice'),
    });
    expect(await command.file('out')).toBe('first line\nsecond line\nto stderr\n');
  });

  it('follows a command that ended while nobody followed it', async () => {
    const command = gatedCommand();
    await startWithoutFollowing(command.request());
    await command.open();
    await waitFor('the command to end', async () => (await command.file('rc')) === '3\n' || undefined);
    const later: string[] = [];
    const result = await shell.runDetached(
      labTarget(lab),
      command.request({ attach: true, fromLine: 1, onLine: (line) => void later.push(line) }),
    );
    expect(result.exitCode).toBe(3);
    expect(later).toEqual(['second line', 'to stderr']);
  });

  // A tagged job's legacy folder is followed only if its run started after the job was recorded.
  it('asked for a run started since a time, finds none whose runner wrote its pid before it', async () => {
    const command = gatedCommand();
    const recorded = Date.now() - 1_000;
    await startWithoutFollowing(command.request());
    const since = (time: number) =>
      shell.probeDetached(labTarget(lab), command.folder, 10_000, undefined, time);
    expect(await since(recorded)).toBe('running');
    // Its pid from a day before: another job's run under the same folder name.
    const dayBefore = new Date(recorded - 86_400_000);
    await utimes(join(command.folder, 'pid'), dayBefore, dayBefore);
    expect(await since(recorded)).toBe('none');
    expect(await shell.probeDetached(labTarget(lab), command.folder, 10_000)).toBe('running');
    await command.open();
    await waitFor('the command to end', async () => (await command.file('rc')) === '3\n' || undefined);
    expect(await since(recorded)).toBe('none');
    expect(await since(dayBefore.getTime())).toBe('ended');
  });

  it('claims again a folder whose start was cut off before its runner launched (no pid, no rc)', async () => {
    const command = gatedCommand();
    // A worker killed between the claim and the launch left the folder, and nothing running.
    await mkdir(command.folder, { recursive: true });
    expect(await shell.probeDetached(labTarget(lab), command.folder, 10_000)).toBe('none');
    const running = shell.runDetached(labTarget(lab), command.request());
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    await command.open();
    expect(await running).toMatchObject({ exitCode: 3 });
    expect(command.lines).toEqual(['first line', 'second line', 'to stderr']);
  });

  it('ends the whole process group on a cancel', async () => {
    const command = gatedCommand();
    const cancel = new AbortController();
    const running = shell
      .runDetached(labTarget(lab), command.request({ signal: cancel.signal }))
      .catch((error: unknown) => error);
    await waitFor('the first line', async () => (command.lines.includes('first line') ? true : undefined));
    const runner = Number(await command.file('pid'));
    cancel.abort(new Error('cancelled by U0ALICE'));
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    expect(await processIsRunning(runner)).toBe(false);
    expect(await command.file('rc')).toBe('143\n');
  });

  it('prunes a finished job’s folder and stale ones, never a step whose command still runs', async () => {
    const root = join(lab.dir, 'prune', '.cache', 'cluster-bot');
    const step = (job: string, name: string) => join(root, job, name);
    const ours = 'job-7-a1b2c3d4e5f6';
    // The job that ended: one step ended, one whose command still runs (another replica's, say).
    const ended = gatedCommand();
    await startWithoutFollowing(ended.request({ folder: step(ours, '2-cilium') }));
    const running = gatedCommand();
    await startWithoutFollowing(running.request({ folder: step(ours, '3-tofu') }));
    await writeFile(ended.gate, '');
    await waitFor(
      'the ended step',
      async () =>
        (await readFile(join(step(ours, '2-cilium'), 'rc'), 'utf8').catch(() => '')) === '3\n' || undefined,
    );
    // Jobs of a week ago whose end could not reach this host (one recorded before folder tags); a
    // job that runs now; and recent folders of other job-7s (another deployment's, an older version's).
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    for (const stale of ['job-3', 'job-2-00000000beef']) {
      await mkdir(step(stale, '4-remove-node'), { recursive: true });
      await writeFile(join(step(stale, '4-remove-node'), 'rc'), '0\n');
      await utimes(join(root, stale), weekAgo, weekAgo);
    }
    for (const live of ['job-9-0123456789ab', 'job-7-ffffffffffff', 'job-7']) {
      await mkdir(step(live, '2-cilium'), { recursive: true });
      await writeFile(join(step(live, '2-cilium'), 'rc'), '0\n');
    }

    const kept = await shell.pruneDetached(labTarget(lab), {
      root,
      jobFolder: ours,
      olderThanMinutes: 7 * 24 * 60,
    });

    expect(kept).toEqual([step(ours, '3-tofu')]);
    expect((await readdir(root, { recursive: true })).sort()).toEqual([
      'job-7',
      'job-7-a1b2c3d4e5f6',
      'job-7-a1b2c3d4e5f6/3-tofu',
      'job-7-a1b2c3d4e5f6/3-tofu/out',
      'job-7-a1b2c3d4e5f6/3-tofu/pid',
      'job-7-ffffffffffff',
      'job-7-ffffffffffff/2-cilium',
      'job-7-ffffffffffff/2-cilium/rc',
      'job-7/2-cilium',
      'job-7/2-cilium/rc',
      'job-9-0123456789ab',
      'job-9-0123456789ab/2-cilium',
      'job-9-0123456789ab/2-cilium/rc',
    ]);
    await running.open();
  });

  it('passes every word as an argument: nothing in the folder, cwd or env is run', async () => {
    const folder = join(lab.dir, "it's $(touch pwned) `x`", 'step');
    await mkdir(join(lab.dir, 'work dir'), { recursive: true });
    const lines: string[] = [];
    const result = await shell.runDetached(labTarget(lab), {
      argv: ['sh', '-c', 'pwd; printf "%s\\n" "$LAB_WORD" "$1"', 'show', '$(touch pwned2); echo no'],
      cwd: join(lab.dir, 'work dir'),
      env: { LAB_WORD: "it's `id` $(id)" },
      timeoutMs: 30_000,
      folder,
      fromLine: 0,
      attach: false,
      onLine: (line) => void lines.push(line),
    });
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual([join(lab.dir, 'work dir'), "it's `id` $(id)", '$(touch pwned2); echo no']);
    expect(await readFile(join(lab.dir, 'work dir', 'pwned'), 'utf8').catch(() => 'absent')).toBe('absent');
  });
});
