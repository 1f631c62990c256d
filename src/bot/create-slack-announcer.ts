import { formatDuration } from '../config/parse-duration.js';
import type { NotifyApprovers } from '../config/world-config.js';
import type { ApprovalAnnouncer } from '../jobs/ports/approval-announcer.js';
import type { ApprovalRequest } from '../lifecycle/ports/approval-desk.js';
import { truncate } from '../wording/truncate.js';
import { approvalButtons } from './approval-buttons.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { isGroup, mention } from './mention.js';
import type { SlackPoster } from './slack-poster.js';

/** Where a job's messages go, and its number for people to refer to it. */
export type JobThreadOf = (jobId: string) => Promise<{
  channel: string;
  threadTs?: string | undefined;
  jobNumber?: number | undefined;
  requestedBy?: string | undefined;
}>;

/** Who may decide a cluster's approvals, and how long a request stands. */
export interface ApprovalPolicy {
  readonly timeoutMs: number;
  readonly approvers: readonly string[];
  readonly allowSelfApproval: boolean;
  readonly notifyApprovers: NotifyApprovers;
}

export const APPROVE_ACTION = 'cluster_approve';
export const REJECT_ACTION = 'cluster_reject';

/**
 * Posts approval requests into the job's thread with Approve / Reject buttons, and closes them. A
 * request waits on people, so it names them (the notification reaches them) and is broadcast to the
 * channel: a reply deep in a job's thread is seen by nobody until it expires.
 */
export function createSlackAnnouncer(
  poster: SlackPoster,
  threadOf: JobThreadOf,
  policyOf: (cluster: string) => ApprovalPolicy,
): ApprovalAnnouncer {
  return {
    async announce(jobId, approvalId, request) {
      const thread = await threadOf(jobId);
      const policy = policyOf(request.cluster);
      const who = whoMayDecide(policy, thread.requestedBy);
      const text = [describeRequest(request, policy.timeoutMs), who.line].join('\n');
      const ts = await poster.post({
        channel: thread.channel,
        threadTs: thread.threadTs,
        broadcast: true,
        asks: {
          approvalId,
          title: `job #${thread.jobNumber ?? '?'}, ${escapeMrkdwn(request.stepTitle)}`,
          request: truncate(text, 2_900),
        },
        text: `⏸ approval needed for ${escapeMrkdwn(request.stepTitle)} (job #${thread.jobNumber ?? '?'})${who.notify}`,
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2_900) } },
          {
            type: 'actions',
            block_id: 'approval',
            elements: approvalButtons(approvalId, { approve: APPROVE_ACTION, reject: REJECT_ACTION }),
          },
        ],
      });
      const link = `<${poster.permalink(thread.channel, ts)}|the request>`;
      await directMessage(
        poster,
        who.direct,
        `⏸ job #${thread.jobNumber ?? '?'} on ${escapeMrkdwn(request.cluster)} waits for your approval of ${escapeMrkdwn(request.stepTitle)}: see ${link} (expires in ${formatDuration(policy.timeoutMs)})`,
      );
      return ts;
    },
    async remind(jobId, stored, { expiresAt, at: sentAt }) {
      if (!stored.request || !stored.messageTs) return;
      const thread = await threadOf(jobId);
      const who = whoMayDecide(policyOf(stored.request.cluster), thread.requestedBy);
      const left = formatDuration(Math.max(0, expiresAt - sentAt));
      const at = new Date(expiresAt).toISOString().slice(11, 16);
      const link = `<${poster.permalink(thread.channel, stored.messageTs)}|the request>`;
      const waits = `⏰ job #${thread.jobNumber ?? '?'} still waits for approval of ${escapeMrkdwn(stored.request.stepTitle)}: it expires at ${at} UTC (in ${left}); see ${link}`;
      await poster.post({
        channel: thread.channel,
        threadTs: thread.threadTs,
        broadcast: true,
        text: `${waits}${who.notify}`,
      });
      await directMessage(poster, who.direct, waits);
    },
    async close(jobId, stored, reason) {
      if (!stored.messageTs || !stored.request) return;
      const thread = await threadOf(jobId);
      await poster.update({
        channel: thread.channel,
        ts: stored.messageTs,
        text: escapeMrkdwn(`${stored.request.stepTitle}: ${reason}`),
        blocks: [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: truncate(
                `~${escapeMrkdwn(stored.request.stepTitle)}~ ${escapeMrkdwn(reason)}; no longer actionable.`,
                2_900,
              ),
            },
          },
        ],
      });
    },
  };
}

/**
 * The approvers to notify: the requester is left out when they may not approve their own job (a
 * group they belong to is still named; its other members can decide). A group cannot be messaged
 * directly, so it is always mentioned; a user is mentioned, messaged (`direct`), or both.
 */
function whoMayDecide(policy: ApprovalPolicy, requestedBy: string | undefined) {
  const named = policy.approvers.filter((id) => policy.allowSelfApproval || id !== requestedBy);
  if (named.length === 0) {
    return {
      notify: '',
      line: "⚠️ *Nobody listed in this cluster's approvers can decide this request.*",
      direct: [],
    };
  }
  const dm = policy.notifyApprovers !== 'mention';
  const direct = dm ? named.filter((id) => !isGroup(id)) : [];
  const mentioned = policy.notifyApprovers === 'dm' ? named.filter(isGroup) : named;
  const mentions = mentioned.map(mention).join(' ');
  const told = direct.length > 0 ? `${direct.length} told by direct message` : '';
  return {
    notify: mentions ? ` · ${mentions}` : '',
    line: `*Who can approve:* ${[mentions, told].filter(Boolean).join(' · ')}`,
    direct,
  };
}

/**
 * One message to each user's DM with the bot (chat.postMessage to a user id), paced like every
 * call. The thread's request stands without them: a person Slack will not let the bot message
 * (deactivated, not in the workspace) is skipped, not a reason to fail the approval.
 */
async function directMessage(poster: SlackPoster, users: readonly string[], text: string): Promise<void> {
  for (const user of users) {
    await poster.post({ channel: user, text }).catch(() => undefined);
  }
}

/** Every piece of it is config, repo or remote text, escaped; only the layout is mrkdwn. */
export function describeRequest(request: ApprovalRequest, timeoutMs: number): string {
  const { binding } = request;
  const e = escapeMrkdwn;
  const lines = [
    `⏸ *Approval needed: ${e(request.stepTitle)}* on ${e(request.cluster)} (⚠ disruptive)`,
    `*Why:* ${e(request.reason)}`,
  ];
  if (request.warning) lines.push(`⚠️ *${e(request.warning)}*`);
  if (binding.consequence) lines.push(`⚠️ *What is lost:* ${e(binding.consequence)}`);
  if (request.minimumApprovals !== undefined && request.minimumApprovals > 1)
    lines.push(`*Needs:* ${request.minimumApprovals} distinct approvers`);
  lines.push(`*Runs:* \`${e(binding.commandLine)}\``, `*Targets:* ${e(binding.targets)}`);
  if (binding.preflight) lines.push(`*Preflight:* ${e(binding.preflight)}`);
  if (binding.commit) lines.push(`*Infra repo commit:* \`${e(binding.commit.slice(0, 12))}\``);
  if (request.previousCommit) {
    lines.push(
      `The repo moved since the last approval: \`${e(request.previousCommit.slice(0, 12))}\` → \`${e(binding.commit?.slice(0, 12) ?? '')}\``,
    );
  }
  const preview = binding.preview;
  if (preview) {
    const changed = Object.entries(preview.changedTasks).map(
      ([host, tasks]) => `${e(host)}: ${e(tasks.join(', '))}`,
    );
    lines.push(
      preview.failure
        ? `*Check-mode preview failed:* ${e(preview.failure)}`
        : `*Check-mode preview:* ${changed.length > 0 ? changed.join('; ') : 'no changes reported'}`,
    );
    if (preview.diffExcerpt) lines.push(`\`\`\`${e(truncate(preview.diffExcerpt, 1_200))}\`\`\``);
  }
  lines.push(`Fingerprint \`${e(binding.fingerprint)}\` · expires in ${formatDuration(timeoutMs)}`);
  return lines.join('\n');
}
