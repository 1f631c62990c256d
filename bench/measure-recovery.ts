import type { RemoteShell } from '../src/lifecycle/ports/remote-shell.js';
import { INFRA_REPO_PATHS } from '../test/lab/infra-repo.js';
import { DEV_ADDRESSES } from '../test/support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../test/support/start-lifecycle-lab.js';
import { round } from './stats.js';

const SNAPSHOT = 'etcd-snapshot-k3s-dev-2-1764590400';
/** The lab servers run v1.36.4+k3s1: one minor up, what an upgrade of all three installs. */
const UPGRADE_TO = 'v1.37.0+k3s1';

export interface RecoveryFigures {
  readonly recovery: {
    /** `restore dev <snapshot>` of the lab's three servers, approval answered at once. */
    restoreMs: number;
    /** The remote commands' time (while any SSH command ran, connection included, as the bot waited for it). */
    remoteMs: number;
    /** Everything else: the bot's own work and its waits on the API for servers to come back. */
    botMs: number;
    remoteCommands: number;
    /** `upgrade dev` of the lab's three servers one at a time (drain, k3s.yml, Ready, verify), approval answered at once. */
    upgradeMs: number;
    /** Its remote commands' time, measured as the restore's. */
    upgradeRemoteMs: number;
    /** Its bot's time: its work, drains and waits on the API. */
    upgradeBotMs: number;
    upgradeRemoteCommands: number;
  };
}

/**
 * One restore of the lab's dev cluster from a snapshot on k3s-dev-2, then one upgrade of its three
 * servers to the next minor, each job's time split by who spent it.
 */
export async function measureRecovery(): Promise<RecoveryFigures> {
  const lab = await startLifecycleLab();
  try {
    await lab.nodes.setNodeState(
      'etcd-snapshot-files',
      `${SNAPSHOT} 3565158 2026-12-01T12:00:00Z\n`,
      DEV_ADDRESSES['k3s-dev-2'],
    );
    const restore = await timeJob(lab, `restore dev ${SNAPSHOT}`);
    const allVars = await lab.repo.readFile(INFRA_REPO_PATHS.allVars);
    await lab.repo.writeFile(
      INFRA_REPO_PATHS.allVars,
      allVars.replace(/^k3s_version: .*$/m, `k3s_version: ${UPGRADE_TO}`),
    );
    await lab.repo.commit(`dev: k3s ${UPGRADE_TO}`);
    const upgrade = await timeJob(lab, 'upgrade dev');
    return {
      recovery: {
        restoreMs: restore.ms,
        remoteMs: restore.remoteMs,
        botMs: restore.botMs,
        remoteCommands: restore.remoteCommands,
        upgradeMs: upgrade.ms,
        upgradeRemoteMs: upgrade.remoteMs,
        upgradeBotMs: upgrade.botMs,
        upgradeRemoteCommands: upgrade.remoteCommands,
      },
    };
  } finally {
    await lab.stop();
  }
}

/** Runs the job to its end, approvals answered at once; its time, and how much of it remote commands ran. */
async function timeJob(lab: LifecycleLab, text: string) {
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
  const job = lab.startJob(text, { wrapShell: timed });
  const started = performance.now();
  const result = await job.runUntilDone({ approve: true });
  const ms = performance.now() - started;
  if (result.status !== 'finished' || result.outcome !== 'succeeded')
    throw new Error(`${text} did not succeed: ${JSON.stringify(result)}`);
  return {
    ms: round(ms, 0),
    remoteMs: round(remoteMs, 0),
    botMs: round(ms - remoteMs, 0),
    remoteCommands,
  };
}
