import { isClusterBotError } from '../errors.js';
import type { Admission } from '../jobs/command-rate-limit.js';
import type { JobRef } from '../jobs/job-record.js';
import { describeCommand, type LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import type { Actor } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * Turns a checked command into a job (or a "busy" refusal), audited either way, in the queue's one
 * script; the command is admitted there too unless the caller admitted it already. A job BullMQ did
 * not take is NOT_QUEUED (the queue took its writes back).
 */
export async function enqueueCommand(
  deps: ServiceDeps,
  actor: Actor,
  command: LifecycleCommand,
  queueIfBusy: boolean,
  admission?: Admission,
  rerunOf?: JobRef,
) {
  const what = describeCommand(command);
  const result = await deps.queue
    .enqueue({
      command,
      requestedBy: actor.userId,
      channel: actor.channelId,
      queueIfBusy,
      admission,
      rerunOf,
    })
    .catch((error: unknown) => {
      // Its writes were taken back: an answer the person can act on, not silence after the ack.
      if (isClusterBotError(error, 'JOB_NOT_QUEUED')) return { kind: 'not-queued' } as const;
      throw error;
    });
  switch (result.kind) {
    case 'not-queued':
      return { code: 'NOT_QUEUED', command: what } satisfies Refusal;
    case 'repeated':
      return { code: 'REPEATED_DELIVERY' } satisfies Refusal;
    case 'limited':
      return { code: 'RATE_LIMITED', perMinute: deps.rateLimit.perMinute } satisfies Refusal;
    case 'busy': {
      const holder = result.holder
        ? await summariseJob(result.holder, deps.threads)
        : { id: result.holderJobId };
      return { code: 'BUSY', cluster: command.cluster, holder, command: what } satisfies Refusal;
    }
  }
  const { record, position } = result;
  return {
    kind: 'queued',
    jobId: record.id,
    pageNonce: record.pageNonce,
    number: record.number,
    cluster: command.cluster,
    command: what,
    position,
  } as const;
}
