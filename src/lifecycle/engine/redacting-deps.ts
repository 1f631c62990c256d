import type { Redact } from '../../log/create-redactor.js';
import { redactValue } from '../../log/redact-value.js';
import { createLineRedactor } from '../redact-lines.js';
import type { EngineDeps } from './run-plan.js';

/**
 * The engine's ports as they must be seen from outside: everything it reports, stores (step
 * records, job facts, approval requests with their check-mode preview), logs or asks about is redacted
 * value by value before it leaves, and each step's output lines through a line redactor of its own.
 */
export function redactingDeps(deps: EngineDeps): EngineDeps {
  const redact: Redact | undefined = deps.redact;
  if (!redact) return deps;
  const { reporter, approvals, checkpoints, log } = deps;
  const perStep = new Map<string, (line: string) => string>();
  return {
    ...deps,
    reporter: {
      emit: (event) => reporter.emit(redactValue(event, redact)),
      output(stepId, line) {
        let redactLine = perStep.get(stepId);
        if (!redactLine) {
          redactLine = createLineRedactor(redact);
          perStep.set(stepId, redactLine);
        }
        return reporter.output(stepId, redactLine(line));
      },
    },
    approvals: {
      state: (stepId) => approvals.state(stepId),
      request: (request) => approvals.request(redactValue(request, redact)),
      expire: (id) => approvals.expire(id),
      void: (id, reason) => approvals.void(id, redact(reason)),
    },
    checkpoints: {
      get: (stepId) => checkpoints.get(stepId),
      set: (stepId, record) => checkpoints.set(stepId, redactValue(record, redact)),
    },
    log: log && {
      warn: (fields, message) => log.warn(redactValue(fields, redact), redact(message)),
    },
  };
}
