import type { HomeAnswer, HomeCluster } from '../service/index.js';
import { describeHomeCluster, type HomeClusterOptions } from '../wording/describe-home.js';
import { describeRefusal } from '../wording/describe-refusal.js';
import { truncate } from '../wording/truncate.js';
import { approvalButtons } from './approval-buttons.js';
import { approveConfirm } from './approve-confirm.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { MRKDWN } from './mrkdwn.js';

export const HOME_VERIFY_ACTION = 'home_verify';
/** The Home's own Approve/Reject: a click goes to the same decision as the thread's buttons. */
export const HOME_APPROVAL_ACTIONS = { approve: 'home_approve', reject: 'home_reject' } as const;

/** A Home tab view as views.publish takes it. */
export interface HomeView {
  readonly type: 'home';
  readonly blocks: readonly Record<string, unknown>[];
}

export interface HomeOptions extends HomeClusterOptions {
  /** Where a "Verify now" job's thread goes (the cluster's command channel), named under its button. */
  readonly verifyChannel: (cluster: string) => string;
  /** A line on top, e.g. what a "Verify now" click did; not part of the state the view reflects. */
  readonly notice?: string | undefined;
}

/**
 * The App Home: one section per cluster with its lease, the approvals waiting (who may give them, a
 * link to each request in its thread, Approve and Reject for whoever may decide), the jobs queued
 * behind, the last verify and open alerts, and a "Verify now" button. A refusal (not an operator)
 * shows only the refusal: no cluster data, no button.
 */
export function renderHome(data: HomeAnswer, options: HomeOptions): HomeView {
  const notice = options.notice ? [section(options.notice), { type: 'divider' }] : [];
  if ('code' in data) {
    return { type: 'home', blocks: [...notice, section(`*cluster-bot*\n${describeRefusal(data, MRKDWN)}`)] };
  }
  const clusters = data.clusters.flatMap((cluster) => [
    { type: 'header', text: { type: 'plain_text', text: truncate(cluster.cluster, 150) } },
    section(describeHomeCluster(cluster, options, MRKDWN)),
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

function section(text: string) {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}
