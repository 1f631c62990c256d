import { posix } from 'node:path';
import type { StepContext } from '../plan/step.js';
import { ANSIBLE_CONFIG_FILE, INVENTORY_FILE } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { ansibleVersionAtCommit } from './ops-ansible-version.js';
import { repoAnsibleConfig } from './repo-ansible-env.js';

/** `  config file = /home/ops/homelab/infra/ansible/ansible.cfg` (or `= None`) in `ansible --version`. */
const CONFIG_FILE_LINE = /^\s*config file = (.*)$/m;

/**
 * Why Ansible on the ops host would not run with the repo's own ansible.cfg; undefined when it does.
 * ANSIBLE_CONFIG names it, but ansible-core skips a missing ANSIBLE_CONFIG and falls back to the
 * cwd, ~/.ansible.cfg and /etc/ansible: settings nobody approved, beside an inventory the bot never
 * read. Ansible's own word (`ansible --version`, with the env every run gets) is the proof.
 */
export async function ansibleConfigProblem(ctx: StepContext): Promise<string | undefined> {
  const expected = repoAnsibleConfig(ctx.world);
  const version = await ansibleVersionAtCommit(ctx);
  const named = CONFIG_FILE_LINE.exec(version.stdout)?.[1]?.trim();
  if (named !== undefined && posix.normalize(named) === posix.normalize(expected)) return undefined;
  const reads = named === undefined || named === 'None' ? 'no config file (its defaults)' : named;
  if ((await readRepoText(ctx, ANSIBLE_CONFIG_FILE)) === undefined) {
    return (
      `${ANSIBLE_CONFIG_FILE} is missing, so Ansible on the ops host reads ${reads} instead: ` +
      `settings no approval covers, while the bot's checks read ${INVENTORY_FILE}; commit the repo's ansible.cfg`
    );
  }
  if (named === undefined) {
    return `\`ansible --version\` on the ops host (exit ${version.exitCode}) names no config file: it cannot be shown to read ${ANSIBLE_CONFIG_FILE}`;
  }
  return `Ansible on the ops host reads ${reads}, not the repo's ${expected} (\`ansible --version\`), so its settings are not the ones the bot checked beside ${INVENTORY_FILE}`;
}
