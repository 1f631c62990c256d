import type { Delivery } from '../delivery/delivery.js';
import type { ApprovalAnnouncer } from '../jobs/ports/approval-announcer.js';
import type { GateAlerts, JobReporterFactory } from '../jobs/ports/job-reporting.js';
import type { ThreadStore } from '../jobs/ports/job-thread.js';
import { describeAccessRefusal } from '../wording/describe-refusal.js';
import { type ApprovalPolicy, createSlackAnnouncer, type JobThreadOf } from './create-slack-announcer.js';
import { createSlackGateAlerts } from './create-slack-gate-alerts.js';
import { createThreadReporter } from './create-thread-reporter.js';
import { MRKDWN } from './mrkdwn.js';
import type { SlackPoster } from './slack-poster.js';

export interface SlackJobReportingDeps {
  readonly poster: SlackPoster;
  readonly threads: ThreadStore;
  /** Where the threads' messages wait for Slack (src/delivery; create-thread-op-sender.ts sends them). */
  readonly delivery: Delivery;
  readonly threadOf: JobThreadOf;
  readonly alertsChannel: string;
  readonly approvalPolicyOf: (cluster: string) => ApprovalPolicy;
}

export interface SlackJobReporting {
  readonly reporterFor: JobReporterFactory;
  readonly announcer: ApprovalAnnouncer;
  readonly alerts: GateAlerts;
}

/** The worker's view of Slack: a job's thread, its approval requests, the alerts channel. */
export function createSlackJobReporting(deps: SlackJobReportingDeps): SlackJobReporting {
  const { poster } = deps;
  return {
    async reporterFor(record, log) {
      const thread = await deps.threads.load(record);
      const resumed = thread.opened;
      const reporter = createThreadReporter({ delivery: deps.delivery, thread, appendLog: log.append });
      return { ...reporter, resumed, describeRefusal: (refusal) => describeAccessRefusal(refusal, MRKDWN) };
    },
    announcer: createSlackAnnouncer(poster, deps.threadOf, deps.approvalPolicyOf),
    alerts: createSlackGateAlerts(poster, deps.alertsChannel),
  };
}
