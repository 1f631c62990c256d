import type { RemoteShell } from '../../lifecycle/ports/remote-shell.js';

/**
 * One job run's shell, its SSH connections its own (never another job's): closed when the run ends,
 * settled, parked for approval, cancelled or taken over, and when the worker stops.
 */
export interface RunShell extends RemoteShell {
  close(): Promise<void>;
}

/** Opens a shell for one run of the job `jobId` (named in its logs). */
export type OpenRunShell = (jobId: string) => RunShell;
