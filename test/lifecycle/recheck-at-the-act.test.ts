import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { playbookStep } from '../../src/lifecycle/playbook/playbook-step.js';
import { notTheFounder } from '../../src/lifecycle/preconditions/not-the-founder.js';
import { loadExampleWorld } from '../support/example-world.js';
import { listHostsOutput } from '../support/list-hosts-output.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

const lab = (path: string) => readFileSync(new URL(`../lab/infra-repo/${path}`, import.meta.url), 'utf8');

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

describe('repo rules checked again right before the playbook', () => {
  it('k3s.yml on a node refuses to run once hosts.ini has made that node the founder', async () => {
    // The repo as it is when the step is about to run: someone moved the founder role to k3s-dev-2.
    const files: Record<string, string> = {
      'infra/ansible/inventory/hosts.ini': lab('infra/ansible/inventory/hosts.ini')
        .replace('[k3s_primary]\nk3s-dev-1', '[k3s_primary]\nk3s-dev-2')
        .replace('[k3s_secondary]\nk3s-dev-2', '[k3s_secondary]\nk3s-dev-1'),
      'infra/ansible/group_vars/all.yml': lab('infra/ansible/group_vars/all.yml'),
    };
    const repo = opsRepoFiles(files);
    const shell = createScriptedShell((call) => {
      if (call.argv.includes('--list-hosts')) {
        return {
          stdout: listHostsOutput('k3s.yml', [
            { pattern: 'k3s_primary', name: 'k3s primary (cluster-init)', hosts: ['k3s-dev-2'] },
          ]),
        };
      }
      return repo(call) ?? { stdout: [] };
    });
    const step = playbookStep(world, {
      id: '1-k3s',
      invocation: { playbook: 'k3s.yml', extraVars: {}, limit: 'k3s-dev-2' },
      target: 'k3s-dev-2',
      hosts: ['k3s-dev-2'],
      recheck: [notTheFounder('k3s-dev-2')],
    });
    const { result, reporter } = await runSteps({
      world,
      command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-2' },
      steps: [step],
      shell,
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(reporter.planFailure()?.message).toMatch(
      /^1 precondition failed: k3s-dev-2 is the --cluster-init founder \(the k3s_primary group in hosts.ini\)/,
    );
    expect(shell.calls.some((call) => call.argv[0] === 'ansible-playbook')).toBe(false);
  });
});
