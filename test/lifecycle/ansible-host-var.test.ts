import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ansibleHostVar } from '../../src/lifecycle/ansible/ansible-host-var.js';
import type { StepContext } from '../../src/lifecycle/plan/step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createScriptedShell, type ScriptedReply } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

function contextAnswering(reply: ScriptedReply) {
  const shell = createScriptedShell((call) => (call.argv[0] === 'ansible' ? reply : undefined));
  const ctx = {
    world,
    cluster: world.clusters.prod!,
    shell,
    signal: new AbortController().signal,
  } as unknown as StepContext;
  return { ctx, shell };
}

describe("a variable as Ansible resolves it for each host (ad-hoc debug var=, Ansible's default output)", () => {
  it('reads each host block, an unset variable as undefined, and runs in the repo with the inventory and the extra vars', async () => {
    const { ctx, shell } = contextAnswering({
      stdout: [
        'k3s-prod-1 | SUCCESS => {',
        '    "k3s_version": "v1.36.4+k3s1"',
        '}',
        'k3s-prod-2 | SUCCESS => {',
        '    "k3s_version": "VARIABLE IS NOT DEFINED!"',
        '}',
      ],
      stderr: ['[WARNING]: Could not match supplied host pattern, ignoring: k3s-prod-3'],
    });
    const answers = await ansibleHostVar(ctx, ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], 'k3s_version', {
      k3s_hosts: 'k3s_prod',
    });
    expect([...answers]).toEqual([
      ['k3s-prod-1', 'v1.36.4+k3s1'],
      ['k3s-prod-2', undefined],
    ]);
    expect(shell.calls[0]?.argv).toEqual([
      'ansible',
      '-i',
      'inventory/hosts.ini',
      'k3s-prod-1,k3s-prod-2,k3s-prod-3',
      '-m',
      'ansible.builtin.debug',
      '-a',
      'var=k3s_version',
      '-e',
      'k3s_hosts=k3s_prod',
    ]);
    expect(shell.calls[0]?.cwd).toMatch(/\/infra\/ansible$/);
  });

  it('a failure is refused with what Ansible said, never read as "unset"', async () => {
    const { ctx } = contextAnswering({
      exitCode: 4,
      stderr: [
        '[WARNING]: Unable to parse /home/ops/homelab/infra/ansible/inventory/hosts.ini as an inventory source',
      ],
    });
    await expect(ansibleHostVar(ctx, ['k3s-prod-1'], 'k3s_version', {})).rejects.toThrow(
      'Ansible could not resolve k3s_version for k3s-prod-1 (exit 4): [WARNING]: Unable to parse',
    );
  });
});
