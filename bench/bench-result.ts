import type { Machine } from './machine.js';
import type { AckFigures, measureAckUnderLoad } from './measure-acks.js';
import type { FleetFigures } from './measure-fleet.js';
import type { JobPageFigures } from './measure-job-page.js';
import type { MemoryFigures } from './measure-memory.js';
import type { OverheadFigures } from './measure-overhead.js';
import type { PageStreamFigures } from './measure-page-streams.js';
import type { RecoveryFigures } from './measure-recovery.js';
import type { RedactionFigures } from './measure-redaction.js';
import type { SlackCallFigures } from './measure-slack-calls.js';
import type { ThroughputFigures } from './measure-throughput.js';
import type { VerifyAlertFigures } from './measure-verify-alert.js';

/** The JSON `npm run bench -- --json` prints; a figure is absent when its section did not run (--only). */
export type BenchResult = Partial<
  AckFigures &
    Awaited<ReturnType<typeof measureAckUnderLoad>> & {
      firstPost: { p50: number; p99: number; n: number };
    } & Pick<SlackCallFigures, 'slack'> &
    Pick<OverheadFigures, 'overhead'> &
    MemoryFigures &
    ThroughputFigures &
    RedactionFigures &
    RecoveryFigures &
    VerifyAlertFigures &
    FleetFigures & { approvalResume: { p50: number; n: number } }
> & {
  /** Filled by two sections: the page's latency (jobPage), its log streams' cost (pageStreams). */
  jobPage?: Partial<JobPageFigures['jobPage'] & PageStreamFigures['jobPage']>;
  machine: Machine;
  /** Sections that did not finish, with why (a stuck job names what it was waiting for). */
  failed?: Record<string, string>;
};
