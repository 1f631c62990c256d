import { parseLifecycleCommand } from '../lifecycle/verbs/parse-lifecycle-command.js';
import type { VerbCommand, VerbSpec } from '../lifecycle/verbs/verb-spec.js';
import { operatorsOnly } from './operators-only.js';
import { type VerbHandler, verbHandler } from './verb-handler.js';

/** A verb that runs a lifecycle plan: its words checked against the config, then submitted as a job. */
export function submitLifecycle({ verb, help }: VerbSpec<VerbCommand>): VerbHandler {
  const handle = operatorsOnly(async (words, { actor, service, world, admission }) => {
    const parsed = parseLifecycleCommand([verb, ...words].join(' '), world);
    if (!parsed.ok) return { code: 'COMMAND_INVALID', message: parsed.error, suggestion: parsed.suggestion };
    return service.submit(actor, parsed.command, parsed.queue, admission?.claim());
  });
  return verbHandler(handle, { help, submitsJob: true });
}
