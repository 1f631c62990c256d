import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isClusterBotError } from '../../src/errors.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type LabConnection, type SshdLab, startSshd } from '../lab/sshd.js';
import { waitFor } from '../support/wait-for.js';
import { labTarget } from './lab-target.js';
import { runCollecting } from './run-collecting.js';

const [HOST_A, HOST_B] = ['127.0.0.1', '127.0.0.2'] as const;
/** Below the shell's 10 channels per connection: the server refuses the 4th at once ("open failed"). */
const MAX_SESSIONS = 3;

describe('one SSH connection per host per job run, against a real sshd', () => {
  let lab: SshdLab;
  beforeAll(async () => {
    lab = await startSshd({ addresses: [HOST_A, HOST_B], maxSessions: MAX_SESSIONS });
  });
  afterAll(async () => {
    await lab?.stop();
  });

  /** The bot's connections since `before`, per address dialled. */
  const newConnections = async (before: readonly LabConnection[]) => {
    const seen = new Set(before.map((each) => `${each.address} ${each.clientPort}`));
    return (await lab.botConnections()).filter((each) => !seen.has(`${each.address} ${each.clientPort}`));
  };
  const stillOpen = async (connections: readonly LabConnection[]) => {
    const open = new Set(await lab.openConnections());
    return connections.filter((each) => open.has(each.clientPort));
  };

  it('runs every command of a run as a channel on one connection per host, more than sshd’s MaxSessions at once waiting their turn; close says goodbye to each', async () => {
    const before = await lab.botConnections();
    const shell = createSshRemoteShell();
    const onA = labTarget(lab, { host: HOST_A, label: 'a' });
    const onB = labTarget(lab, { host: HOST_B, label: 'b' });
    for (const word of ['one', 'two', 'three']) {
      expect((await runCollecting(shell, onA, ['echo', word])).stdout).toEqual([word]);
    }
    expect((await runCollecting(shell, onB, ['echo', 'b'])).stdout).toEqual(['b']);
    // Eight at once on a connection that takes three: the rest wait for a channel, none fails.
    const together = await Promise.all(
      Array.from({ length: 8 }, (_, n) => runCollecting(shell, onA, ['sh', '-c', `sleep 0.3; echo ${n}`])),
    );
    expect(together.map((result) => result.stdout)).toEqual(Array.from({ length: 8 }, (_, n) => [String(n)]));

    const used = await newConnections(before);
    expect(used.map((each) => each.address).sort()).toEqual([HOST_A, HOST_B]);
    expect(await stillOpen(used)).toHaveLength(2);

    await shell.close();
    expect(await stillOpen(used)).toEqual([]);
    // Ended by the bot (a disconnect message, as `ssh` sends on exit), not dropped.
    await waitFor('sshd to log both disconnects', async () => {
      const said = await lab.disconnectedByClient();
      return used.every((each) => said.includes(each.clientPort));
    });
    const refused = await shell
      .exec(onA, { argv: ['true'], timeoutMs: 5_000 })
      .catch((error: unknown) => error);
    expect(isClusterBotError(refused, 'SSH_CONNECTION_LOST')).toBe(true);
  });

  it('a connection dropped mid-job: the command in flight fails as before, the next one opens a new connection', async () => {
    const before = await lab.botConnections();
    const shell = createSshRemoteShell({ keepaliveIntervalMs: 1_000 });
    const target = labTarget(lab, { host: HOST_A });
    try {
      expect((await runCollecting(shell, target, ['echo', 'first'])).exitCode).toBe(0);
      const inFlight = shell
        .exec(target, { argv: ['sleep', '30'], timeoutMs: 60_000 })
        .catch((error: unknown) => error);
      await waitFor('the sleep to run', async () => (await lab.commands()).includes('sleep 30'));
      // The per-connection sshd dies (a dropped connection, a restarted host).
      await lab.killSessions();

      const lost = await inFlight;
      expect(isClusterBotError(lost, 'SSH_CONNECTION_LOST')).toBe(true);
      expect((lost as Error).message).toContain('was lost while sleep was running');
      expect((await runCollecting(shell, target, ['echo', 'again'])).stdout).toEqual(['again']);
      expect((await runCollecting(shell, target, ['echo', 'and again'])).stdout).toEqual(['and again']);
      // The first connection, then one more for everything after the drop.
      expect(await newConnections(before)).toHaveLength(2);
    } finally {
      await shell.close();
    }
  });

  it('a rebuilt node: the connection opened under the old key is ended, the new pin gets a connection of its own that verifies the new key', async () => {
    const before = await lab.botConnections();
    const shell = createSshRemoteShell();
    const known = labTarget(lab, { host: HOST_B, label: 'k3s-dev-3' });
    try {
      expect((await runCollecting(shell, known, ['echo', 'old'])).stdout).toEqual(['old']);
      const [old] = await newConnections(before);
      const newFingerprint = await lab.rotateHostKey(HOST_B);

      // A pin naming a key the node does not present is refused, though a connection to it is open.
      const wrong = await shell
        .exec(labTarget(lab, { host: HOST_B, hostKey: { fingerprint: 'SHA256:bm90LXRoZS1rZXk' } }), {
          argv: ['true'],
          timeoutMs: 5_000,
        })
        .catch((error: unknown) => error);
      expect(isClusterBotError(wrong, 'SSH_HOST_KEY_MISMATCH')).toBe(true);
      // The job's pin after the acceptance: the new key only.
      const accepted = labTarget(lab, { host: HOST_B, hostKey: { fingerprint: newFingerprint } });
      expect((await runCollecting(shell, accepted, ['echo', 'new'])).stdout).toEqual(['new']);

      const used = await newConnections(before);
      expect(used).toHaveLength(2);
      // The old key's connection is gone: nothing runs on it any more.
      expect(await stillOpen([old!])).toEqual([]);
    } finally {
      await shell.close();
    }
  });
});
