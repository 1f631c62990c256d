import type { StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { ansibleEnv } from './ansible-env.js';
import { captureRemote } from './capture-remote.js';
import { repoPaths } from './repo-paths.js';

/** Ansible renders only whether a become password is there: the password itself is never printed. */
const BECOME_PASSWORD_SET = "msg={{ (ansible_become_password | default('')) | length > 0 }}";
const ANSWER = /"msg":\s*(true|false)/;

/**
 * Asks the ops host's Ansible, with the cluster's vault password file, whether the vault decrypts
 * and gives `host` a become password. Undefined when it does; otherwise what is wrong, with
 * Ansible's own error line (e.g. "Decryption failed").
 */
export async function vaultProblem(
  ctx: StepContext,
  host: string,
  file: string,
): Promise<string | undefined> {
  const answer = await captureRemote(
    ctx,
    opsTarget(ctx.world),
    ['ansible', host, '-m', 'debug', '-a', BECOME_PASSWORD_SET],
    {
      cwd: repoPaths(ctx.world).ansible,
      env: await ansibleEnv(ctx),
    },
  );
  const seen = ANSWER.exec(answer.stdout)?.[1];
  if (answer.exitCode === 0 && seen === 'true') return undefined;
  if (answer.exitCode === 0 && seen === 'false') {
    return `${file} decrypts but gives ${host} no ansible_become_password: no ${ctx.cluster.name} play can escalate`;
  }
  const error =
    [...answer.stderr.split('\n'), ...answer.stdout.split('\n')]
      .find((line) => /ERROR|FAILED|fatal/i.test(line))
      ?.trim() ?? `ansible exited ${answer.exitCode}`;
  const using = ctx.cluster.vaultPasswordFile
    ? `the vault password file ${ctx.cluster.vaultPasswordFile}`
    : `no vault password file (vaultPasswordFile is not set for ${ctx.cluster.name})`;
  return `${file} does not decrypt on the ops host with ${using}: ${error}`;
}
