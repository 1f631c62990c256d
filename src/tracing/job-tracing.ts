import type { LifecycleEvent } from '../lifecycle/ports/reporter.js';

/** One run of a job (a resume after a restart or an approval is a run of its own). */
export interface TracedRun {
  readonly jobId: string;
  readonly number: number;
  /** The command in words, as the thread names it: `up dev`. */
  readonly command: string;
  readonly cluster: string;
  readonly attempt: number;
}

/** Ends a remote command's span: with the reason it failed, or none. */
export type EndCommandSpan = (failure?: string) => void;

/** The spans of one run: the run's own, a child per step, a grandchild per remote command. */
export interface RunTrace {
  /** Steps start and end with their events; a gate that failed is an event on the run's span. */
  event(event: LifecycleEvent): void;
  /** A remote command of the step running now (the run's, between steps); its line is already redacted. */
  command(target: string, commandLine: string): EndCommandSpan;
  /** `outcome`: how the run ended, `waiting` for one that parked for an approval. */
  end(outcome: string): void;
}

/** Where traces go: OTLP when configured (create-otlp-tracing.ts), else nowhere. */
export interface JobTracing {
  startRun(run: TracedRun): RunTrace;
  /** Sends what is still buffered; called as the process stops. */
  shutdown(): Promise<void>;
}

const NO_RUN_TRACE: RunTrace = { event() {}, command: () => () => {}, end() {} };

export const NO_TRACING: JobTracing = {
  startRun: () => NO_RUN_TRACE,
  shutdown: async () => {},
};
