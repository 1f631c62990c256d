import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

export const MAX_AUDIT_ENTRIES = 50;
const DEFAULT_ENTRIES = 10;

/** `audit [n]`: the last n entries of the audit trail. */
export const audit = verbHandler(
  operatorsOnly(async (words, { actor, service }) => {
    const count = words.length === 0 ? DEFAULT_ENTRIES : Number(words[0]);
    if (words.length > 1 || !Number.isInteger(count) || count < 1 || count > MAX_AUDIT_ENTRIES) {
      return { code: 'USAGE', verb: 'audit', max: MAX_AUDIT_ENTRIES };
    }
    return service.audit(actor, count);
  }),
  { help: ['`audit [n]`: the last n entries of the audit trail'] },
);
