import { ansibleEnv } from '../ansible/ansible-env.js';
import { ANSIBLE_VERSION_ARGV, readAnsibleVersion } from '../ansible/ops-ansible-version.js';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

const READS = [
  ANSIBLE_VERSION_ARGV,
  ['ansible-config', 'dump', '--only-changed'],
  ['ansible-galaxy', 'collection', 'list'],
];

/**
 * What runs a playbook besides the commit: Ansible's version (and the config file it names), every
 * setting that config changes from the defaults, and the installed collections with their
 * versions. None of it is in git, so an approval binds it too: upgrading Ansible or a collection
 * between approval and run voids the approval.
 */
export async function ansibleToolchain(ctx: StepContext): Promise<string> {
  const options = { cwd: repoPaths(ctx.world).ansible, env: await ansibleEnv(ctx) };
  const answers = await Promise.all(
    READS.map((argv) =>
      argv === ANSIBLE_VERSION_ARGV
        ? readAnsibleVersion(ctx)
        : captureRemote(ctx, opsTarget(ctx.world), argv, options),
    ),
  );
  return answers
    .map((answer, index) => `${READS[index]!.join(' ')} (exit ${answer.exitCode})\n${answer.stdout}`)
    .join('\n');
}
