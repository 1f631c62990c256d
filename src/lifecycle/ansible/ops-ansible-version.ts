import type { StepContext } from '../plan/step.js';
import { type Captured, captureRemote } from '../remote/capture-remote.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { ansibleSettingsEnv } from './ansible-env.js';

export const ANSIBLE_VERSION_ARGV = ['ansible', '--version'];

/**
 * `ansible --version` on the ops host, in the repo's ansible folder with the ANSIBLE_* env every run
 * gets (the cluster's KUBECONFIG changes nothing it prints, and needs the repo read): asked now.
 */
export async function readAnsibleVersion(ctx: StepContext): Promise<Captured> {
  const version = await captureRemote(ctx, opsTarget(ctx.world), ANSIBLE_VERSION_ARGV, {
    cwd: repoPaths(ctx.world).ansible,
    env: ansibleSettingsEnv(ctx),
  });
  rememberAnsibleVersion(ctx, version);
  return version;
}

/** An answer known to be today's (read afresh, or proven unchanged): this run's next check at the commit takes it. */
export function rememberAnsibleVersion(ctx: StepContext, version: Captured): void {
  ctx.repoFiles.remember(answerKey(ctx), version);
}

/**
 * The same answer once per commit a run: the run's one ops host and its Ansible answer alike before
 * each playbook, and the repo's ansible.cfg is the commit's. The latest read at this commit serves
 * (an approval's binding reads it afresh just before).
 */
export function ansibleVersionAtCommit(ctx: StepContext): Promise<Captured> {
  return ctx.repoFiles.once(
    answerKey(ctx),
    () => readRepoCommit(ctx),
    () => readAnsibleVersion(ctx),
  );
}

function answerKey(ctx: StepContext): string {
  return `${ANSIBLE_VERSION_ARGV.join(' ')} on ${opsTarget(ctx.world).label}`;
}
