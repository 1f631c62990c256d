import type { ClusterOverview, JobSummary } from '../service/index.js';
import { describeJob, describeJobLine } from './describe-job.js';
import { type JobPageUrl, jobPageLink } from './job-page-url.js';
import type { Marks } from './marks.js';

/** `/cluster status [cluster]`: lease holder, waiting jobs, unfinished jobs, last verify, a suspended Flux, per cluster. */
export function describeStatus(clusters: readonly ClusterOverview[], marks: Marks): string {
  const sections = clusters.map((overview) => {
    const last = overview.lastVerify;
    const lines = [marks.bold(overview.cluster)];
    lines.push(overview.holder ? `• lease: ${describeJob(overview.holder, marks)}` : '• lease: free');
    if (overview.waiting.length > 0)
      lines.push(`• queued behind it: ${overview.waiting.map((id) => id.replace('job-', '#')).join(', ')}`);
    lines.push(...overview.open.map((job) => describeJobLine(job, marks)));
    lines.push(
      last
        ? `• last verify: ${last.outcome} at ${new Date(last.at).toISOString().slice(0, 16).replace('T', ' ')} UTC (${last.jobNumber ? `job #${last.jobNumber}` : 'scheduled'}): ${marks.text(last.summary)}`
        : '• last verify: none yet',
    );
    const flux = overview.fluxSuspended;
    if (flux) {
      lines.push(
        `• ⚠ Flux suspended for Cilium since job #${flux.jobNumber} ${marks.text(flux.outcome)} at ${new Date(flux.at).toISOString().slice(0, 16).replace('T', ' ')} UTC: ` +
          (flux.reason === undefined
            ? `Flux does not reconcile HelmRelease kube-system/cilium until ${marks.code(`/cluster cilium ${overview.cluster} --resume-flux`)}`
            : marks.text(flux.reason)),
      );
    }
    for (const pin of overview.hostKeyPins ?? []) {
      lines.push(
        `• ⚠ ${pin.node} is reached through the bot's own host-key pin ${pin.fingerprint} ` +
          `(accepted in job #${pin.jobId.replace('job-', '')} by ${pin.approvedBy.map(marks.user).join(', ')}): ` +
          `add ${marks.code(marks.text(pin.knownHostsLine))} to the mounted known_hosts (and drop its old key)`,
      );
    }
    return lines.join('\n');
  });
  return sections.join('\n\n');
}

/** `/cluster jobs`: the recent jobs with outcome and duration. */
export function describeRecentJobs(
  jobs: readonly JobSummary[],
  marks: Marks,
  jobPageUrl?: JobPageUrl,
): string {
  if (jobs.length === 0) return 'No jobs yet.';
  const lines = jobs.map((job) => `${describeJobLine(job, marks)}${jobPageLink(job, jobPageUrl, marks)}`);
  return `Recent jobs:\n${lines.join('\n')}`;
}
