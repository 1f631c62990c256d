import type { PlaybookInvocation } from '../ansible/playbook-invocation.js';
import type { StepContext } from '../plan/step.js';
import { previewPlaybook } from '../playbook/preview-playbook.js';
import { isFirstRun } from './cluster-formed.js';

/**
 * k3s.yml asks first on its first run (it founds the cluster) and, on a formed cluster, whenever its
 * `--check --diff` preview shows a change: a changed config or version restarts k3s on each server it
 * touches. A preview that shows nothing lets it run unasked; one that cannot run asks.
 */
export function k3sApprovalRequired(invocation: PlaybookInvocation) {
  return async (ctx: StepContext): Promise<boolean> => {
    if (await isFirstRun(ctx)) return true;
    const preview = await previewPlaybook(ctx, invocation);
    const changed = Object.entries(preview.changedTasks).map(
      ([host, tasks]) => `${host}: ${tasks.join(', ')}`,
    );
    if (!preview.ran) {
      await ctx.progress(`k3s.yml --check --diff could not run (${preview.failure}): asking first`);
      return true;
    }
    await ctx.progress(
      changed.length === 0
        ? 'k3s.yml --check --diff: no change on the formed cluster, nothing to approve'
        : `k3s.yml --check --diff would change ${changed.join('; ')}: asking first`,
    );
    return changed.length > 0;
  };
}
