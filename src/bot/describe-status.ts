import type { ClusterOverview, JobSummary } from '../service/index.js';
import { describeJob, describeJobLine } from './describe-job.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { type JobPageUrl, jobPageLink } from './job-page-url.js';

/** `/cluster status [cluster]`: lease holder, waiting jobs, unfinished jobs, last verify, a suspended Flux, per cluster. */
export function describeStatus(clusters: readonly ClusterOverview[]): string {
  const sections = clusters.map((overview) => {
    const last = overview.lastVerify;
    const lines = [`*${overview.cluster}*`];
    lines.push(overview.holder ? `• lease: ${describeJob(overview.holder)}` : '• lease: free');
    if (overview.waiting.length > 0)
      lines.push(`• queued behind it: ${overview.waiting.map((id) => id.replace('job-', '#')).join(', ')}`);
    lines.push(...overview.open.map(describeJobLine));
    lines.push(
      last
        ? `• last verify: ${last.outcome} at ${new Date(last.at).toISOString().slice(0, 16).replace('T', ' ')} UTC (${last.jobNumber ? `job #${last.jobNumber}` : 'scheduled'}): ${escapeMrkdwn(last.summary)}`
        : '• last verify: none yet',
    );
    const flux = overview.fluxSuspended;
    if (flux) {
      lines.push(
        `• ⚠ Flux suspended for Cilium since job #${flux.jobNumber} ${escapeMrkdwn(flux.outcome)} at ${new Date(flux.at).toISOString().slice(0, 16).replace('T', ' ')} UTC: ` +
          (flux.reason === undefined
            ? `Flux does not reconcile HelmRelease kube-system/cilium until \`/cluster cilium ${overview.cluster} --resume-flux\``
            : escapeMrkdwn(flux.reason)),
      );
    }
    for (const pin of overview.hostKeyPins ?? []) {
      lines.push(
        `• ⚠ ${pin.node} is reached through the bot's own host-key pin ${pin.fingerprint} ` +
          `(accepted in job #${pin.jobId.replace('job-', '')} by ${pin.approvedBy.map((id) => `<@${id}>`).join(', ')}): ` +
          `add \`${escapeMrkdwn(pin.knownHostsLine)}\` to the mounted known_hosts (and drop its old key)`,
      );
    }
    return lines.join('\n');
  });
  return sections.join('\n\n');
}

/** `/cluster jobs`: the recent jobs with outcome and duration. */
export function describeRecentJobs(jobs: readonly JobSummary[], jobPageUrl?: JobPageUrl): string {
  if (jobs.length === 0) return 'No jobs yet.';
  const lines = jobs.map((job) => `${describeJobLine(job)}${jobPageLink(job, jobPageUrl)}`);
  return `Recent jobs:\n${lines.join('\n')}`;
}
