import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { ansibleEnv } from './ansible-env.js';
import { parseAdhocAnswers } from './parse-adhoc-answers.js';
import { INVENTORY_ARGS } from './playbook-invocation.js';

/** Ansible renders only whether a become password is there: the password itself is never printed. */
const BECOME_PASSWORD_SET = "msg={{ (ansible_become_password | default('')) | length > 0 }}";

/**
 * Asks the ops host's Ansible once, with the cluster's vault password file, whether the vault
 * decrypts and gives each of `hosts` a become password. Empty when it does for all of them;
 * otherwise what is wrong: Ansible's own error line (e.g. "Decryption failed"), or every host
 * without a become password named.
 */
export async function vaultProblems(
  ctx: StepContext,
  hosts: readonly string[],
  file: string,
): Promise<string[]> {
  if (hosts.length === 0) return [];
  const answer = await captureRemote(
    ctx,
    opsTarget(ctx.world),
    ['ansible', ...INVENTORY_ARGS, hosts.join(','), '-m', 'debug', '-a', BECOME_PASSWORD_SET],
    {
      cwd: repoPaths(ctx.world).ansible,
      env: await ansibleEnv(ctx),
    },
  );
  const answers = parseAdhocAnswers(answer.stdout);
  if (answers.size === 0) return [notDecrypting(ctx, file, answer)];
  const without = hosts.filter((host) => answers.get(host)?.msg === false);
  const unsure = hosts.filter((host) => typeof answers.get(host)?.msg !== 'boolean');
  return [
    ...(without.length > 0
      ? [
          `${file} decrypts but gives ${without.join(', ')} no ansible_become_password: no ${ctx.cluster.name} play can escalate`,
        ]
      : []),
    ...unsure.map(
      (host) =>
        `the ops host's Ansible cannot say whether ${file} gives ${host} a become password: ${answers.get(host)?.failure ?? 'no answer for it'}`,
    ),
  ];
}

/** vaultProblems for one host; undefined when the vault gives it a become password. */
export async function vaultProblem(
  ctx: StepContext,
  host: string,
  file: string,
): Promise<string | undefined> {
  return (await vaultProblems(ctx, [host], file))[0];
}

function notDecrypting(
  ctx: StepContext,
  file: string,
  answer: { exitCode: number | null; stdout: string; stderr: string },
): string {
  const error =
    [...answer.stderr.split('\n'), ...answer.stdout.split('\n')]
      .find((line) => /ERROR|FAILED|fatal/i.test(line))
      ?.trim() ?? `ansible exited ${answer.exitCode}`;
  const using = ctx.cluster.vaultPasswordFile
    ? `the vault password file ${ctx.cluster.vaultPasswordFile}`
    : `no vault password file (vaultPasswordFile is not set for ${ctx.cluster.name})`;
  return `${file} does not decrypt on the ops host with ${using}: ${error}`;
}
