import { bindingFingerprint } from '../approval-binding.js';
import type { Step } from '../plan/step.js';

/**
 * A bare-metal node is rebuilt by a person: the bot cannot reinstall its OS. Once the node is out
 * of the cluster the job parks on this step's approval (holding no worker, as any approval does),
 * which says what to do by hand; an approver's click says it is done, and is audited like any
 * other. Only then is the node probed for its new host key.
 */
export function reinstallConfirmationStep(id: string, node: string, user: string): Step {
  const commandLine = `reinstall the OS on ${node} by hand, then confirm`;
  return {
    id,
    title: 'OS reinstalled by hand',
    target: node,
    commandLine,
    approval: {
      reason:
        `reinstall the OS on ${node} now, by hand, as the runbook's "Re-provisioning a node (fresh OS)" says: ` +
        `a fresh OS with the bot's SSH key for ${user}, on the same address. Then approve: the click says ` +
        `${node} is reinstalled. The job waits here holding no worker; next it probes ${node} and shows ` +
        'its new host key for a person to accept',
      mark: '⚠ by hand',
      required: async () => true,
      bind: async () => ({
        commandLine,
        targets: node,
        fingerprint: bindingFingerprint(undefined, ['reinstalled', node]),
      }),
    },
    async run(ctx) {
      const by = ctx.approvedBy.join(', ') || 'an approver';
      return { status: 'succeeded', summary: `${node} reinstalled by hand, confirmed by ${by}` };
    },
  };
}
