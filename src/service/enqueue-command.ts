import { describeCommand, type LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import type { Actor } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/** Turns a checked command into a job (or a "busy" refusal), audited either way. */
export async function enqueueCommand(
  deps: ServiceDeps,
  actor: Actor,
  command: LifecycleCommand,
  queueIfBusy: boolean,
) {
  const result = await deps.queue.enqueue({
    command,
    requestedBy: actor.userId,
    channel: actor.channelId,
    queueIfBusy,
  });
  const what = describeCommand(command);
  if (result.kind === 'busy') {
    const record = await deps.records.get(result.holderJobId);
    const holder = record ? await summariseJob(record, deps.threads) : { id: result.holderJobId };
    await deps.audit.record({
      at: deps.now(),
      who: actor.userId,
      action: 'refused',
      what: `${what}: busy`,
    });
    return { code: 'BUSY', cluster: command.cluster, holder, command: what } satisfies Refusal;
  }
  const { record, position } = result;
  await deps.audit.record({ at: deps.now(), who: actor.userId, action: 'command', what, jobId: record.id });
  return {
    kind: 'queued',
    jobId: record.id,
    number: record.number,
    cluster: command.cluster,
    command: what,
    position,
  } as const;
}
