import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ansibleBecomeArgv } from '../../src/lifecycle/ansible/ansible-become-argv.js';
import { type RootCommandResult, rootPath, runAsRoot } from '../../src/lifecycle/node/run-as-root.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { findNode } from '../../src/lifecycle/targets.js';
import { loadExampleWorld } from '../support/example-world.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** Runs argv as root on prod's k3s-prod-1 (login `ops`, whose sudo wants a password) in one step. */
async function asRoot(argv: string[], answer: (call: ShellCall) => ScriptedReply | undefined) {
  const shell = createScriptedShell(answer);
  let result: RootCommandResult | undefined;
  const step: Step = {
    id: '1-root',
    title: 'root',
    target: 'k3s-prod-1',
    commandLine: argv.join(' '),
    async run(ctx) {
      const node = findNode(ctx.cluster, 'k3s-prod-1');
      result = await runAsRoot(ctx, node, argv, await rootPath(ctx, node));
      return { status: 'succeeded', summary: 'ran' };
    },
  };
  const { reporter } = await runSteps({
    world,
    shell,
    steps: [step],
    command: { verb: 'verify', cluster: 'prod' },
  });
  return { result, shell, reporter };
}

/** Prod's group_vars name its own kubeconfig, which every ansible run on the ops host gets. */
const repoFiles = opsRepoFiles({
  'infra/ansible/group_vars/all.yml': 'cluster_kubeconfig_name: dev.kubeconfig\n',
  'infra/ansible/group_vars/k3s_prod/vars.yml':
    'k3s_servers_group: k3s_prod\ncluster_kubeconfig_name: prod.kubeconfig\n',
});

const sudoNeedsPassword = (call: ShellCall): ScriptedReply | undefined =>
  call.argv.join(' ') === 'sudo -n true'
    ? { exitCode: 1, stderr: ['sudo: a password is required'] }
    : repoFiles(call);

describe('runAsRoot', () => {
  it('a login whose sudo wants a password: the ops host’s Ansible runs the argv with become, its output parsed', async () => {
    const { result, shell, reporter } = await asRoot(['systemctl', 'stop', 'k3s'], (call) =>
      call.argv[0] === 'ansible'
        ? {
            exitCode: 2,
            stdout: [
              'k3s-prod-1 | FAILED | rc=5 >>',
              'Failed to stop k3s.service: Unit k3s.service not loaded.',
              'non-zero return code',
            ],
          }
        : sudoNeedsPassword(call),
    );
    expect(result).toEqual({
      exitCode: 5,
      lines: ['Failed to stop k3s.service: Unit k3s.service not loaded.'],
    });
    const adhoc = shell.calls.find((call) => call.argv[0] === 'ansible');
    expect(adhoc).toMatchObject({
      target: 'ops',
      cwd: `${world.ops.repoPath}/infra/ansible`,
      argv: [
        'ansible',
        '-i',
        'inventory/hosts.ini',
        'k3s-prod-1',
        '-b',
        '-m',
        'command',
        '-a',
        '{"argv":["systemctl","stop","k3s"],"strip_empty_ends":false}',
      ],
    });
    expect(shell.calls.some((call) => call.target === 'k3s-prod-1' && call.argv.includes('systemctl'))).toBe(
      false,
    );
    expect(reporter.lines).toEqual(['Failed to stop k3s.service: Unit k3s.service not loaded.']);
  });

  it('become refused: no exit code, and the reason Ansible gave', async () => {
    const { result } = await asRoot(['k3s-uninstall.sh'], (call) =>
      call.argv[0] === 'ansible'
        ? { exitCode: 2, stdout: ['k3s-prod-1 | FAILED | rc=-1 >>', 'Incorrect sudo password'] }
        : sudoNeedsPassword(call),
    );
    expect(result).toEqual({ exitCode: null, lines: [], failure: 'Incorrect sudo password' });
  });

  it('passwordless sudo keeps the bot’s own SSH path', async () => {
    const { result, shell } = await asRoot(['systemctl', 'stop', 'k3s'], () => undefined);
    expect(result).toEqual({ exitCode: 0, lines: [] });
    expect(shell.calls.map((call) => [call.target, ...call.argv])).toEqual([
      ['k3s-prod-1', 'sudo', '-n', 'true'],
      ['k3s-prod-1', 'sudo', '-n', 'systemctl', 'stop', 'k3s'],
    ]);
  });
});

describe('ansibleBecomeArgv', () => {
  it('refuses a word Ansible would template, naming it, and builds nothing', () => {
    expect(() => ansibleBecomeArgv('k3s-prod-1', ['echo', "{{ lookup('pipe', 'id') }}"])).toThrow(
      /"\{\{ lookup\('pipe', 'id'\) \}\}" cannot run on k3s-prod-1 through Ansible: Ansible would template it/,
    );
  });
});
