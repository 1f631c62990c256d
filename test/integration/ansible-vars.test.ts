import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClusterVar } from '../../src/lifecycle/ansible/read-cluster-var.js';
import { fluxHandOff } from '../../src/lifecycle/preconditions/flux-hand-off.js';
import { readRepoFacts } from '../../src/lifecycle/repo/read-repo-facts.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { labStepContext } from '../support/lab-step-context.js';
import { type LabWorld, startLabWorld } from '../support/lab-world.js';

let lab: LabWorld;
beforeAll(async () => {
  lab = await startLabWorld();
});
afterAll(async () => {
  await lab?.stop();
});

const fluxPathProblems = async (cluster: string) => {
  const ctx = labStepContext(lab, cluster);
  return fluxHandOff.check(ctx, await readRepoFacts(ctx));
};

describe('vars read as Ansible reads them (real repo files on the ops host, real ansible)', () => {
  it(
    'a role default spelled with {{ playbook_dir }} resolves; what the bot cannot render, Ansible renders for a server; a parameterised bootstrap.sh takes its path from the command',
    async () => {
      const defaults = await lab.repo.readFile('infra/ansible/roles/flux_bootstrap/defaults/main.yml');
      expect(defaults).toContain(
        'flux_bootstrap_flux_cmd: "{{ playbook_dir }}/../../../bootstrap/flux/bootstrap.sh"',
      );
      expect(await fluxPathProblems('dev')).toEqual([]);
      expect(
        await readClusterVar(labStepContext(lab, 'dev'), 'flux_bootstrap_flux_cmd', {
          role: 'flux_bootstrap',
        }),
      ).toEqual({
        value: `${lab.repo.ansibleDir}/playbooks/../../../bootstrap/flux/bootstrap.sh`,
        file: 'infra/ansible/roles/flux_bootstrap/defaults/main.yml',
      });

      // A filter the bot does not evaluate: ansible renders it on the ops host, for k3s-dev-1.
      const allVars = await lab.repo.readFile(INFRA_REPO_PATHS.allVars);
      await lab.repo.writeFile(
        INFRA_REPO_PATHS.allVars,
        `${allVars}flux_bootstrap_flux_cmd: "{{ (playbook_dir ~ '/../../../bootstrap/flux/bootstrap.sh') | realpath }}"\n`,
      );
      expect(await readClusterVar(labStepContext(lab, 'dev'), 'flux_bootstrap_flux_cmd')).toEqual({
        value: `${lab.repo.root}/bootstrap/flux/bootstrap.sh`,
        file: INFRA_REPO_PATHS.allVars,
      });
      expect(await fluxPathProblems('dev')).toEqual([]);
      // What Ansible cannot render either is refused with Ansible's own reason, never guessed.
      await lab.repo.writeFile(
        INFRA_REPO_PATHS.allVars,
        `${allVars}flux_bootstrap_flux_cmd: "{{ flux_scripts_dir | realpath }}/bootstrap.sh"\n`,
      );
      expect(await fluxPathProblems('dev')).toEqual([
        expect.stringMatching(
          /^cannot tell which path dev's Flux hand-off would bootstrap: flux_bootstrap_flux_cmd in infra\/ansible\/group_vars\/all\.yml \(.*\) is a template neither the bot nor Ansible \(for k3s-dev-1\) can render: The task includes an option with an undefined variable\. .*flux_scripts_dir/,
        ),
      ]);
      await lab.repo.writeFile(INFRA_REPO_PATHS.allVars, allVars);

      // bootstrap.sh taking its path as $1, supplied per cluster by the command var: accepted for prod.
      const script = await lab.repo.readFile('bootstrap/flux/bootstrap.sh');
      await lab.repo.writeFile(
        'bootstrap/flux/bootstrap.sh',
        script.replace('--path=clusters/dev', '--path="$1"'),
      );
      expect(await fluxPathProblems('prod')).toEqual([
        expect.stringContaining('passes --path=$1, set at run time'),
      ]);
      const prodVars = await lab.repo.readFile(INFRA_REPO_PATHS.prodVars);
      await lab.repo.writeFile(
        INFRA_REPO_PATHS.prodVars,
        `${prodVars}flux_bootstrap_flux_cmd: "{{ playbook_dir }}/../../../bootstrap/flux/bootstrap.sh clusters/prod"\n`,
      );
      expect(await fluxPathProblems('prod')).toEqual([]);
      await lab.repo.writeFile(INFRA_REPO_PATHS.prodVars, prodVars);
      await lab.repo.writeFile('bootstrap/flux/bootstrap.sh', script);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
