import type { PlannedCommand } from '../lifecycle/command/lifecycle-command.js';
import { parseLifecycleCommand } from '../lifecycle/command/parse-lifecycle-command.js';
import { operatorsOnly } from './operators-only.js';
import type { VerbHandler } from './verb-handler.js';

/** A verb that runs a lifecycle plan: its words checked against the config, then submitted as a job. */
export function submitLifecycle(verb: PlannedCommand['verb']): VerbHandler {
  const handler = operatorsOnly(async (words, { actor, service, world, admission }) => {
    const parsed = parseLifecycleCommand([verb, ...words].join(' '), world);
    if (!parsed.ok) return { code: 'COMMAND_INVALID', message: parsed.error, suggestion: parsed.suggestion };
    return service.submit(actor, parsed.command, parsed.queue, admission?.claim());
  });
  return Object.assign(handler, { submitsJob: true as const });
}
