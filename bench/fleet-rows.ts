import type { FleetFigures } from './measure-fleet.js';
import type { Row } from './render-table.js';

/** The fleet section's rows: the zeros as targets, the rest reported. */
export function fleetRows({ fleet }: FleetFigures): Row[] {
  const run = `fleet: ${fleet.clusters} clusters, 1 bot + 3 workers, verify every minute for ${fleet.minutes} min + ${fleet.commandJobs} mutating jobs`;
  return [
    {
      figure: `${run}: jobs lost`,
      measured: `${fleet.jobsLost} of ${fleet.jobs} (${fleet.scheduledVerifies} scheduled verifies, ${fleet.verifiesNotPassed} not passed; ${fleet.jobsFailed} failed)`,
      target: '0',
      met: fleet.jobsLost === 0,
    },
    {
      figure: 'fleet: two mutating jobs on one cluster at once (audit start → outcome)',
      measured: String(fleet.overlaps),
      target: '0',
      met: fleet.overlaps === 0,
    },
    {
      figure: 'fleet: Slack 429s',
      measured: String(fleet.rateLimited),
      target: '0',
      met: fleet.rateLimited === 0,
    },
    {
      figure: `fleet: ack during the run (${fleet.ackN} slash commands: the mutating ones, \`status\` every 5 s)`,
      measured: `p99 ${fleet.ackP99} ms`,
      target: 'reported',
      met: undefined,
    },
    {
      figure: 'fleet: worker RSS (mean of 3) after the first round of verifies → at the end',
      measured: `${fleet.rssStartMb} MB → ${fleet.rssEndMb} MB`,
      target: 'flat (within 10 %)',
      met: fleet.rssEndMb <= fleet.rssStartMb * 1.1,
    },
    {
      figure: 'fleet: Redis used_memory growth per job that ended (a Redis of its own)',
      measured: `${fleet.redisBytesPerJob} bytes`,
      target: 'reported',
      met: undefined,
    },
  ];
}
