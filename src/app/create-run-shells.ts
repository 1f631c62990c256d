import type { OpenRunShell, RunShell } from '../jobs/ports/run-shell.js';
import type { Metrics } from '../metrics/create-metrics.js';
import { meterRemoteShell } from '../metrics/meter-remote-shell.js';
import type { SshRemoteShell } from '../ssh/index.js';

export interface RunShells {
  /** A shell for one job run, metered; its connections are its own. */
  readonly open: OpenRunShell;
  /** Closes the shells of the runs still going (the worker stops): their connections end now. */
  closeAll(): Promise<void>;
}

/** The worker's shells, one per job run, so that stopping the process closes every connection it holds. */
export function createRunShells(openSsh: (jobId: string) => SshRemoteShell, metrics: Metrics): RunShells {
  const open = new Set<SshRemoteShell>();
  return {
    open(jobId): RunShell {
      const ssh = openSsh(jobId);
      open.add(ssh);
      return {
        ...meterRemoteShell(ssh, metrics),
        async close() {
          open.delete(ssh);
          await ssh.close();
        },
      };
    },
    async closeAll() {
      const closing = [...open].map((ssh) => ssh.close());
      open.clear();
      await Promise.all(closing);
    },
  };
}
