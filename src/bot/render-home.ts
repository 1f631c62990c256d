import type { HomeAnswer, HomeCluster, JobSummary, LastVerify } from '../service/index.js';
import { approvalButtons } from './approval-buttons.js';
import { approveConfirm } from './approve-confirm.js';
import { describeJob } from './describe-job.js';
import { describeRefusal } from './describe-refusal.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { type JobPageUrl, jobPageLink } from './job-page-url.js';
import { mention } from './mention.js';
import { OUTCOME, truncate } from './render-board.js';

export const HOME_VERIFY_ACTION = 'home_verify';
/** The Home's own Approve/Reject: a click goes to the same decision as the thread's buttons. */
export const HOME_APPROVAL_ACTIONS = { approve: 'home_approve', reject: 'home_reject' } as const;

/** A Home tab view as views.publish takes it. */
export interface HomeView {
  readonly type: 'home';
  readonly blocks: readonly Record<string, unknown>[];
}

export interface HomeOptions {
  readonly jobPageUrl: JobPageUrl;
  /** The web address of a Slack message (the approval's request in its thread). */
  readonly threadLink?: ((channel: string, ts: string) => string) | undefined;
  /** Where a "Verify now" job's thread goes (the cluster's command channel), named under its button. */
  readonly verifyChannel: (cluster: string) => string;
  /** A line on top, e.g. what a "Verify now" click did; not part of the state the view reflects. */
  readonly notice?: string | undefined;
}

/** Slack lists at most this many jobs per kind before "and N more": a section holds 3000 characters. */
const LISTED = 5;

/**
 * The App Home: one section per cluster with its lease, the approvals waiting (who may give them, a
 * link to each request in its thread, Approve and Reject for whoever may decide), the jobs queued
 * behind, the last verify and open alerts, and a "Verify now" button. A refusal (not an operator)
 * shows only the refusal: no cluster data, no button.
 */
export function renderHome(data: HomeAnswer, options: HomeOptions): HomeView {
  const notice = options.notice ? [section(options.notice), { type: 'divider' }] : [];
  if ('code' in data) {
    return { type: 'home', blocks: [...notice, section(`*cluster-bot*\n${describeRefusal(data)}`)] };
  }
  const clusters = data.clusters.flatMap((cluster) => [
    { type: 'header', text: { type: 'plain_text', text: truncate(cluster.cluster, 150) } },
    section(describeHomeCluster(cluster, options)),
    ...approvalActions(cluster),
    {
      type: 'actions',
      block_id: `home_${cluster.cluster}`.slice(0, 255),
      elements: [
        {
          type: 'button',
          action_id: HOME_VERIFY_ACTION,
          text: { type: 'plain_text', text: 'Verify now' },
          value: cluster.cluster,
        },
      ],
    },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Verify now runs \`verify ${escapeMrkdwn(cluster.cluster)}\` as you, with your rights; its thread goes to <#${options.verifyChannel(cluster.cluster)}>.`,
        },
      ],
    },
    { type: 'divider' },
  ]);
  const empty = data.clusters.length === 0 ? [section('No clusters in the config.')] : [];
  // A Home view holds 100 blocks; five per cluster (and one per approval) keeps a long list under it.
  return { type: 'home', blocks: [...notice, ...clusters, ...empty].slice(0, 100) };
}

/**
 * Buttons per approval the viewer may decide, once its request is in the thread (the one the buttons
 * answer): Approve asks a confirm dialog saying what it covers; the requester where self-approval is
 * off gets Reject only. A request with more to weigh than the dialog holds gets none: its link says why.
 */
function approvalActions(cluster: HomeCluster) {
  return cluster.approvals
    .filter((approval) => approval.mayReject && approval.message && !approval.decideInThread)
    .map((approval) => ({
      type: 'actions',
      block_id: `home_approval_${approval.approvalId}`.slice(0, 255),
      elements: approvalButtons(approval.approvalId, HOME_APPROVAL_ACTIONS, {
        what: `${approval.jobId.replace('job-', '#')} ${approval.stepTitle}`,
        approve: approval.mayApprove,
        confirm: approveConfirm(approval),
      }),
    }));
}

/** The mrkdwn of one cluster's section (also what the console's `home` prints). */
export function describeHomeCluster(
  cluster: HomeCluster,
  options: Pick<HomeOptions, 'jobPageUrl' | 'threadLink'>,
): string {
  const job = (summary: JobSummary) => `${describeJob(summary)}${jobPageLink(summary, options.jobPageUrl)}`;
  const lines = [
    cluster.holder
      ? `*Lease:* ${job(cluster.holder)}${cluster.holder.record ? `, since ${when(cluster.holder.record.createdAt)}` : ''}`
      : '*Lease:* free',
  ];
  for (const approval of cluster.approvals) {
    const number = approval.jobId.replace('job-', '#');
    const given =
      approval.approvals.length > 0 ? `, approved by ${approval.approvals.map(mention).join(', ')}` : '';
    const yours = approval.mayApprove
      ? ' You may approve or reject it.'
      : approval.mayReject
        ? ' You may reject it (you asked for this job).'
        : '';
    const decide = approval.mayReject && approval.decideInThread;
    const link =
      approval.message && options.threadLink
        ? ` <${options.threadLink(approval.message.channel, approval.message.ts)}|${decide ? 'Open the request to decide' : 'Open the request in its thread'}>${decide ? `: ${escapeMrkdwn(decide)}` : ''}.`
        : '';
    lines.push(
      `*Waiting for approval:* job ${number} at ${escapeMrkdwn(approval.stepTitle)} (${approval.required} needed${given}; approvers: ${cluster.approvers.map(mention).join(', ')}).${yours}${link}`,
    );
  }
  if (cluster.queued.length > 0) {
    const more = cluster.queued.length > LISTED ? ` and ${cluster.queued.length - LISTED} more` : '';
    lines.push(`*Queued behind it:* ${cluster.queued.slice(0, LISTED).map(job).join('; ')}${more}`);
  }
  const flux = cluster.fluxSuspended;
  if (flux) {
    lines.push(
      `*⚠ Flux suspended* for Cilium since job #${flux.jobNumber} ${escapeMrkdwn(flux.outcome)} ${when(flux.at)}: ${flux.reason === undefined ? `it does not reconcile HelmRelease kube-system/cilium until \`/cluster cilium ${escapeMrkdwn(cluster.cluster)} --resume-flux\`` : escapeMrkdwn(flux.reason)}`,
    );
  }
  lines.push(`*Last verify:* ${describeLastVerify(cluster.lastVerify)}`);
  lines.push(
    cluster.alerts.length === 0
      ? '*Open alerts:* none'
      : `*Open alerts:*\n${cluster.alerts
          .slice(0, LISTED)
          .map(
            (alert) =>
              `⚠ ${escapeMrkdwn(alert.gate)}: ${escapeMrkdwn(truncate(alert.observed, 200))} (since ${when(alert.alertedAt)})`,
          )
          .join('\n')}`,
  );
  return truncate(lines.join('\n'), 2_900);
}

function describeLastVerify(last: LastVerify | undefined): string {
  if (!last) return 'none yet';
  const by = last.jobNumber ? `job #${last.jobNumber}` : 'scheduled';
  // A failed verify's summary names its failing gates ("gate: observed; …").
  const summary = last.summary ? `: ${escapeMrkdwn(truncate(last.summary, 600))}` : '';
  return `${OUTCOME[last.outcome] ?? escapeMrkdwn(last.outcome)} ${when(last.at)} (${by})${summary}`;
}

/** Slack shows the date in each reader's time zone; the fallback (and the console) reads UTC. */
function when(at: number): string {
  const utc = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${utc}>`;
}

function section(text: string) {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}
