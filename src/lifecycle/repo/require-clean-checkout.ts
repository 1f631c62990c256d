import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { captureRemoteOrFail } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

const SHOWN = 10;
/** What Ansible reads on its own from the repo's ansible dir: an ignored file there still runs. */
const READ_BY_ANSIBLE = ['inventory/', 'group_vars/', 'host_vars/', 'playbooks/', 'roles/'].map(
  (folder) => `infra/ansible/${folder}`,
);

/**
 * An approval binds a commit; uncommitted edits on the ops host would run without anyone having
 * seen them, so a disruptive step refuses a dirty checkout and names what is dirty. Files git
 * ignores are part of no commit either, yet Ansible loads a vars file or a role from them all the
 * same: under the folders it reads they are refused too.
 */
export async function requireCleanCheckout(ctx: StepContext): Promise<void> {
  const status = await captureRemoteOrFail(
    ctx,
    opsTarget(ctx.world),
    ['git', 'status', '--porcelain', '--ignored=matching'],
    { cwd: repoPaths(ctx.world).root },
  );
  const entries = status
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ ignored: line.startsWith('!!'), path: line.slice(3) }));
  const dirty = entries.filter((entry) => !entry.ignored).map((entry) => entry.path);
  const ignored = entries
    .filter((entry) => entry.ignored && READ_BY_ANSIBLE.some((folder) => entry.path.startsWith(folder)))
    .map((entry) => entry.path);
  const reasons = [
    ...(dirty.length > 0 ? [`has uncommitted changes (${listed(dirty)})`] : []),
    ...(ignored.length > 0
      ? [`has files git ignores where Ansible reads them (${listed(ignored)}): no commit holds them`]
      : []),
  ];
  if (reasons.length === 0) return;
  throw new ClusterBotError(
    'PRECONDITION_FAILED',
    `the infra checkout on the ops host ${reasons.join(' and ')}: commit or discard them, so the approval covers what will run`,
    { details: { dirty, ignored } },
  );
}

function listed(files: readonly string[]): string {
  const more = files.length > SHOWN ? ` and ${files.length - SHOWN} more` : '';
  return `${files.slice(0, SHOWN).join(', ')}${more}`;
}
