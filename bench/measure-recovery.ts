import type { RemoteShell } from '../src/lifecycle/ports/remote-shell.js';
import { DEV_ADDRESSES } from '../test/support/lab-names.js';
import { startLifecycleLab } from '../test/support/start-lifecycle-lab.js';
import { round } from './stats.js';

const SNAPSHOT = 'etcd-snapshot-k3s-dev-2-1764590400';

export interface RecoveryFigures {
  readonly recovery: {
    /** `restore dev <snapshot>` of the lab's three servers, approval answered at once. */
    restoreMs: number;
    /** The remote commands' time (while any SSH command ran, connection included, as the bot waited for it). */
    remoteMs: number;
    /** Everything else: the bot's own work and its waits on the API for servers to come back. */
    botMs: number;
    remoteCommands: number;
  };
}

/** One restore of the lab's dev cluster from a snapshot on k3s-dev-2, its time split by who spent it. */
export async function measureRecovery(): Promise<RecoveryFigures> {
  const lab = await startLifecycleLab();
  try {
    await lab.nodes.setNodeState(
      'etcd-snapshot-files',
      `${SNAPSHOT} 3565158 2026-12-01T12:00:00Z\n`,
      DEV_ADDRESSES['k3s-dev-2'],
    );
    // Checks run side by side (every server at once): remote time is when at least one command runs.
    let remoteMs = 0;
    let remoteCommands = 0;
    let running = 0;
    let busySince = 0;
    const timed = (shell: RemoteShell): RemoteShell => ({
      ...shell,
      async exec(target, request) {
        if (running++ === 0) busySince = performance.now();
        try {
          return await shell.exec(target, request);
        } finally {
          remoteCommands++;
          if (--running === 0) remoteMs += performance.now() - busySince;
        }
      },
    });
    const job = lab.startJob(`restore dev ${SNAPSHOT}`, { wrapShell: timed });
    const started = performance.now();
    const result = await job.runUntilDone({ approve: true });
    const restoreMs = performance.now() - started;
    if (result.status !== 'finished' || result.outcome !== 'succeeded')
      throw new Error(`restore dev did not succeed: ${JSON.stringify(result)}`);
    return {
      recovery: {
        restoreMs: round(restoreMs, 0),
        remoteMs: round(remoteMs, 0),
        botMs: round(restoreMs - remoteMs, 0),
        remoteCommands,
      },
    };
  } finally {
    await lab.stop();
  }
}
