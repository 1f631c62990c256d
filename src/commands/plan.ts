import { parseLifecycleCommand } from '../lifecycle/verbs/parse-lifecycle-command.js';
import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `plan <command…>`: the command's steps, then a read-only job checking them. */
export const plan = verbHandler(
  operatorsOnly(async (words, { actor, service, world, admission }) => {
    const parsed = parseLifecycleCommand(words.join(' '), world);
    if (!parsed.ok) {
      const suggestion = parsed.suggestion && `plan ${parsed.suggestion}`;
      return { code: 'COMMAND_INVALID', message: parsed.error, suggestion };
    }
    return service.plan(actor, parsed.command, admission?.claim());
  }),
  {
    help: [
      '`plan <command…>`: print the steps of any command above, then check them against the repo (read-only job)',
    ],
    submitsJob: true,
  },
);
