import type { HomeAnswer, HomeCluster, JobSummary, LastVerify } from '../service/index.js';
import { describeJob } from './describe-job.js';
import { describeRefusal } from './describe-refusal.js';
import { type JobPageUrl, jobPageLink } from './job-page-url.js';
import type { Marks } from './marks.js';
import { OUTCOME } from './outcome.js';
import { truncate } from './truncate.js';

/** The App Home lists at most this many jobs per kind before "and N more": a Slack section holds 3000 characters. */
const LISTED = 5;

export interface HomeClusterOptions {
  readonly jobPageUrl: JobPageUrl;
  /** The web address of a message (the approval's request in its thread). */
  readonly threadLink?: ((channel: string, ts: string) => string) | undefined;
}

/** The App Home's overview as the console's `home` prints it: each cluster's section, and how to verify it. */
export function describeHome(data: HomeAnswer, jobPageUrl: JobPageUrl, marks: Marks): string {
  if ('code' in data) return describeRefusal(data, marks);
  if (data.clusters.length === 0) return 'No clusters in the config.';
  return data.clusters
    .map(
      (cluster) =>
        `${marks.bold(marks.text(cluster.cluster))}\n${describeHomeCluster(cluster, { jobPageUrl }, marks)}\nVerify now: ${marks.code(`/cluster verify ${marks.text(cluster.cluster)}`)}`,
    )
    .join('\n\n');
}

/** One cluster's section of the App Home: lease, approvals waiting, jobs queued, Flux, last verify, open alerts. */
export function describeHomeCluster(cluster: HomeCluster, options: HomeClusterOptions, marks: Marks): string {
  const job = (summary: JobSummary) =>
    `${describeJob(summary, marks)}${jobPageLink(summary, options.jobPageUrl, marks)}`;
  const when = (at: number) =>
    marks.date(at, `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  const lines = [
    cluster.holder
      ? `${marks.bold('Lease:')} ${job(cluster.holder)}${cluster.holder.record ? `, since ${when(cluster.holder.record.createdAt)}` : ''}`
      : `${marks.bold('Lease:')} free`,
  ];
  for (const approval of cluster.approvals) {
    const number = approval.jobId.replace('job-', '#');
    const given =
      approval.approvals.length > 0
        ? `, approved by ${approval.approvals.map(marks.mention).join(', ')}`
        : '';
    const yours = approval.mayApprove
      ? ' You may approve or reject it.'
      : approval.mayReject
        ? ' You may reject it (you asked for this job).'
        : '';
    const decide = approval.mayReject && approval.decideInThread;
    const link =
      approval.message && options.threadLink
        ? ` ${marks.link(options.threadLink(approval.message.channel, approval.message.ts), decide ? 'Open the request to decide' : 'Open the request in its thread')}${decide ? `: ${marks.text(decide)}` : ''}.`
        : '';
    lines.push(
      `${marks.bold('Waiting for approval:')} job ${number} at ${marks.text(approval.stepTitle)} (${approval.required} needed${given}; approvers: ${cluster.approvers.map(marks.mention).join(', ')}).${yours}${link}`,
    );
  }
  if (cluster.queued.length > 0) {
    const more = cluster.queued.length > LISTED ? ` and ${cluster.queued.length - LISTED} more` : '';
    lines.push(
      `${marks.bold('Queued behind it:')} ${cluster.queued.slice(0, LISTED).map(job).join('; ')}${more}`,
    );
  }
  const flux = cluster.fluxSuspended;
  if (flux) {
    lines.push(
      `${marks.bold('⚠ Flux suspended')} for Cilium since job #${flux.jobNumber} ${marks.text(flux.outcome)} ${when(flux.at)}: ${flux.reason === undefined ? `it does not reconcile HelmRelease kube-system/cilium until ${marks.code(`/cluster cilium ${marks.text(cluster.cluster)} --resume-flux`)}` : marks.text(flux.reason)}`,
    );
  }
  lines.push(`${marks.bold('Last verify:')} ${describeLastVerify(cluster.lastVerify, when, marks)}`);
  lines.push(
    cluster.alerts.length === 0
      ? `${marks.bold('Open alerts:')} none`
      : `${marks.bold('Open alerts:')}\n${cluster.alerts
          .slice(0, LISTED)
          .map(
            (alert) =>
              `⚠ ${marks.text(alert.gate)}: ${marks.text(truncate(alert.observed, 200))} (since ${when(alert.alertedAt)})`,
          )
          .join('\n')}`,
  );
  return truncate(lines.join('\n'), 2_900);
}

function describeLastVerify(
  last: LastVerify | undefined,
  when: (at: number) => string,
  marks: Marks,
): string {
  if (!last) return 'none yet';
  const by = last.jobNumber ? `job #${last.jobNumber}` : 'scheduled';
  // A failed verify's summary names its failing gates ("gate: observed; …").
  const summary = last.summary ? `: ${marks.text(truncate(last.summary, 600))}` : '';
  return `${OUTCOME[last.outcome] ?? marks.text(last.outcome)} ${when(last.at)} (${by})${summary}`;
}
