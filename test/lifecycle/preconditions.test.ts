import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { parseListHosts } from '../../src/lifecycle/ansible/parse-list-hosts.js';
import type { StepContext } from '../../src/lifecycle/plan/step.js';
import { isFirstRun } from '../../src/lifecycle/plans/cluster-formed.js';
import { fluxHandOff } from '../../src/lifecycle/preconditions/flux-hand-off.js';
import { founderAgrees } from '../../src/lifecycle/preconditions/founder-agrees.js';
import { founderInCluster } from '../../src/lifecycle/preconditions/founder-in-cluster.js';
import { nodesInInventory } from '../../src/lifecycle/preconditions/nodes-in-inventory.js';
import { notTheFounder } from '../../src/lifecycle/preconditions/not-the-founder.js';
import { preconditionsStep } from '../../src/lifecycle/preconditions/preconditions-step.js';
import { productionServers } from '../../src/lifecycle/preconditions/production-servers.js';
import { groupMembers, parseInventory } from '../../src/lifecycle/repo/parse-inventory.js';
import { readRepoFacts } from '../../src/lifecycle/repo/read-repo-facts.js';
import { createRepoFileCache } from '../../src/lifecycle/repo/repo-file-cache.js';
import { loadExampleWorld } from '../support/example-world.js';
import { listHostsOutput } from '../support/list-hosts-output.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryHostKeyPins } from '../support/memory-host-key-pins.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createMemoryKubeconfigs } from '../support/memory-kubeconfigs.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from '../support/scripted-shell.js';
import { waitFor } from '../support/wait-for.js';

// The lab's miniature of the operators' repo: the real layout, read as the ops host would serve it.
const lab = (path: string) => readFileSync(new URL(`../lab/infra-repo/${path}`, import.meta.url), 'utf8');
const REPO_FILES = [
  'infra/ansible/inventory/hosts.ini',
  'infra/ansible/group_vars/all.yml',
  'infra/ansible/group_vars/k3s_prod/vars.yml',
  'infra/ansible/roles/flux_bootstrap/defaults/main.yml',
  'bootstrap/flux/bootstrap.sh',
];

/** A shell variable as a script spells it (not a template placeholder of this file). */
const SHELL_ENV = ['$', '{ENV}'].join('');

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

interface ContextOptions {
  /** The cluster's API destroys every call, as a founder wiped with the address it serves on. */
  readonly apiDown?: boolean;
  /** How the nodes answer the bot's own SSH commands. */
  readonly nodes?: (call: ShellCall) => ScriptedReply | undefined;
  /** Each read of a repo file waits until the commands asked so far make this true. */
  readonly readsWaitFor?: (asked: readonly string[]) => boolean;
}

function contextFor(
  cluster: string,
  changes: Record<string, string | undefined> = {},
  options: ContextOptions = {},
): StepContext {
  const files: Record<string, string | undefined> = Object.fromEntries(REPO_FILES.map((f) => [f, lab(f)]));
  Object.assign(files, changes);
  const readFiles = opsRepoFiles(files);
  // What Ansible answers for a template it cannot render either (the ad-hoc debug the bot falls back to).
  const asked = () =>
    waitFor('the commands a read waits for', () =>
      options.readsWaitFor?.(shell.calls.map((call) => call.argv.join(' '))),
    );
  const shell = createScriptedShell(
    (call) =>
      withHold(readFiles(call), options.readsWaitFor === undefined ? undefined : asked) ??
      options.nodes?.(call) ??
      (call.argv[0] === 'ansible'
        ? {
            exitCode: 2,
            stdout: [
              `${call.argv[3]} | FAILED! => {`,
              '    "msg": "The lookup \'env\' is not allowed here"',
              '}',
            ],
          }
        : undefined),
  );
  return {
    jobId: 'job-7',
    stepId: '1-preconditions',
    interrupted: false,
    shown: { read: async () => 0, write: async () => undefined },
    world,
    cluster: world.clusters[cluster]!,
    shell,
    kube: kubeOf(options.apiDown ?? false),
    kubeconfigs: createMemoryKubeconfigs().keeper,
    clock: createInstantClock(),
    signal: new AbortController().signal,
    facts: { get: () => undefined, set: async () => undefined },
    keptHostKeys: {},
    repoFiles: createRepoFileCache(undefined, async () => {}),
    hostKeyPins: createMemoryHostKeyPins().pins,
    approvedBy: [],
    progress: async () => undefined,
    output: () => undefined,
    note: async () => undefined,
    gateFailed: async () => undefined,
  };
}

/** The first `git rev-parse HEAD` (the repo's reading) answered by `first`, every later one by `then`. */
function headReads(
  first: (heads: () => number) => ScriptedReply,
  then: () => ScriptedReply,
): (call: ShellCall) => ScriptedReply | undefined {
  let heads = 0;
  return (call) => {
    if (call.argv.join(' ') !== 'git rev-parse HEAD') return undefined;
    heads += 1;
    return heads === 1 ? first(() => heads) : then();
  };
}

function withHold(reply: ScriptedReply | undefined, hold: (() => Promise<unknown>) | undefined) {
  return reply && hold ? { ...reply, hold: hold().then(() => undefined) } : reply;
}

function kubeOf(down: boolean) {
  const memory = createMemoryKube();
  memory.setUnreachable(down);
  return memory.kube;
}

async function problems(
  cluster: string,
  check: typeof founderAgrees,
  changes?: Record<string, string | undefined>,
) {
  const ctx = contextFor(cluster, changes);
  return check.check(ctx, await readRepoFacts(ctx));
}

describe('the inventory as Ansible reads it', () => {
  it('resolves groups through their children, and keeps commented hosts apart', () => {
    const inventory = parseInventory(lab('infra/ansible/inventory/hosts.ini'));
    expect(groupMembers(inventory, 'k3s_servers').sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(groupMembers(inventory, 'k3s_primary')).toEqual(['k3s-dev-1']);
    expect(groupMembers(inventory, 'k3s_prod')).toEqual(['k3s-prod-1']);
    expect([...inventory.commented].sort()).toEqual(['k3s-prod-2', 'k3s-prod-3']);
  });

  it('reads --list-hosts: each play, its pattern and hosts, empty plays included', () => {
    const plays = parseListHosts(
      listHostsOutput('k3s.yml', [
        { pattern: 'k3s_prod_primary', name: 'k3s primary (cluster-init)', hosts: ['k3s-prod-1'] },
        { pattern: 'k3s_prod_secondary', name: 'k3s secondaries (join)', hosts: [] },
      ]).join('\n'),
    );
    expect(plays).toEqual([
      { number: 1, pattern: 'k3s_prod_primary', name: 'k3s primary (cluster-init)', hosts: ['k3s-prod-1'] },
      { number: 2, pattern: 'k3s_prod_secondary', name: 'k3s secondaries (join)', hosts: [] },
    ]);
  });
});

describe('preconditions read from the infra repo', () => {
  it("asks Ansible which ansible.cfg it reads while the repo's files are still being read: that check needs none of them", async () => {
    const ctx = contextFor('dev', {}, { readsWaitFor: (asked) => asked.includes('ansible --version') });
    const step = preconditionsStep('1-preconditions', 'dev', []);
    expect(await step.run(ctx)).toMatchObject({ status: 'succeeded' });
  });

  it('a cancel met by one check is a cancel, though the repo read failed otherwise meanwhile', async () => {
    const ctx = contextFor(
      'dev',
      {},
      {
        nodes: headReads(
          () => ({ error: new Error('git: dubious ownership') }),
          () => ({ error: new ClusterBotError('CANCELLED', 'cancelled by U0ALICE') }),
        ),
      },
    );
    const step = preconditionsStep('1-preconditions', 'dev', []);
    await expect(step.run(ctx)).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('a check failing while the repo is still being read fails the step with its error, and nothing goes unhandled', async () => {
    // The repo's reading learns HEAD once the ansible.cfg check's own HEAD read lost the connection.
    const ctx = contextFor(
      'dev',
      {},
      {
        nodes: headReads(
          (heads) => ({
            stdout: ['a'.repeat(40)],
            hold: waitFor('the second HEAD read', () => heads() >= 2).then(() => undefined),
          }),
          () => ({ error: new Error('SSH connection to ops lost') }),
        ),
      },
    );
    const step = preconditionsStep('1-preconditions', 'dev', []);
    await expect(step.run(ctx)).rejects.toThrow('SSH connection to ops lost');
  });

  it('the founder is the member of k3s_primary_group: dev from group_vars/all.yml, prod from its vars.yml', async () => {
    expect(await problems('dev', founderAgrees)).toEqual([]);
    expect(await problems('prod', founderAgrees)).toEqual([]);
    const ctx = contextFor('prod');
    expect((await readRepoFacts(ctx)).primary).toEqual({
      variable: 'k3s_primary_group',
      group: 'k3s_prod_primary',
      file: 'infra/ansible/group_vars/k3s_prod/vars.yml',
      members: ['k3s-prod-1'],
    });
  });

  it('a config primary that disagrees with hosts.ini is refused, naming both', async () => {
    const moved = lab('infra/ansible/inventory/hosts.ini')
      .replace('[k3s_primary]\nk3s-dev-1', '[k3s_primary]\nk3s-dev-2')
      .replace('[k3s_secondary]\nk3s-dev-2', '[k3s_secondary]\nk3s-dev-1');
    expect(await problems('dev', founderAgrees, { 'infra/ansible/inventory/hosts.ini': moved })).toEqual([
      'the config names k3s-dev-1 the primary (clusters.dev.nodes.k3s-dev-1.roles), but hosts.ini puts k3s-dev-2 in ' +
        'k3s_primary (k3s_primary_group in infra/ansible/group_vars/all.yml): fix the config to match the repo',
    ]);
    expect(
      await problems('dev', notTheFounder('k3s-dev-2'), { 'infra/ansible/inventory/hosts.ini': moved }),
    ).toEqual([
      expect.stringMatching(
        /^k3s-dev-2 is the --cluster-init founder \(the k3s_primary group in hosts.ini\)/,
      ),
    ]);
    expect(await problems('dev', notTheFounder('k3s-dev-3'))).toEqual([]);
  });

  it('without k3s_primary_group the bot cannot tell the founder, and says so', async () => {
    const allVars = lab('infra/ansible/group_vars/all.yml').replace(/^k3s_primary_group:.*$/m, '');
    expect(await problems('dev', founderAgrees, { 'infra/ansible/group_vars/all.yml': allVars })).toEqual([
      'cannot tell the founder: k3s_primary_group is set neither in infra/ansible/group_vars/all.yml nor in infra/ansible/group_vars/k3s_servers/vars.yml',
    ]);
  });

  it("prod's Flux hand-off is refused while bootstrap.sh bootstraps clusters/dev, naming the file and the path", async () => {
    expect(await problems('dev', fluxHandOff)).toEqual([]);
    expect(await problems('prod', fluxHandOff)).toEqual([
      "the Flux hand-off would bootstrap prod with --path=clusters/dev (bootstrap/flux/bootstrap.sh, run by flux_bootstrap_flux_cmd in infra/ansible/roles/flux_bootstrap/defaults/main.yml), not clusters/prod: prod would get clusters/dev's manifests. Change bootstrap/ (or override flux_bootstrap_flux_cmd for k3s_prod) first",
    ]);
  });

  it('an override in the prod group_vars wins over the role default, resolved with its references', async () => {
    const prodVars = lab('infra/ansible/group_vars/k3s_prod/vars.yml');
    const override = {
      'infra/ansible/group_vars/k3s_prod/vars.yml': `${prodVars}\nflux_script: bootstrap/flux/bootstrap-prod.sh\nflux_bootstrap_flux_cmd: "{{ flux_script }}"\n`,
      'bootstrap/flux/bootstrap-prod.sh': lab('bootstrap/flux/bootstrap.sh').replace(
        'clusters/dev',
        'clusters/prod',
      ),
    };
    expect(await problems('prod', fluxHandOff, override)).toEqual([]);
    // A --path passed to a script that hard-codes its own may well be ignored: the bot cannot tell.
    const passed = {
      'infra/ansible/group_vars/k3s_prod/vars.yml': `${prodVars}\nflux_bootstrap_flux_cmd: bootstrap/flux/bootstrap.sh --path=clusters/prod\n`,
    };
    expect(await problems('prod', fluxHandOff, passed)).toEqual([
      "cannot tell which path prod's Flux hand-off would bootstrap: bootstrap/flux/bootstrap.sh, run by flux_bootstrap_flux_cmd in infra/ansible/group_vars/k3s_prod/vars.yml passes several: clusters/prod, clusters/dev",
    ]);
  });

  it('a parameterised bootstrap.sh gets the cluster path from the command var: an argument or an env var', async () => {
    const prodVars = lab('infra/ansible/group_vars/k3s_prod/vars.yml');
    const parameterised = lab('bootstrap/flux/bootstrap.sh').replace('--path=clusters/dev', '--path="$1"');
    const byArgument = {
      'bootstrap/flux/bootstrap.sh': parameterised,
      'infra/ansible/group_vars/k3s_prod/vars.yml': `${prodVars}\nflux_bootstrap_flux_cmd: "{{ playbook_dir }}/../../../bootstrap/flux/bootstrap.sh clusters/prod"\n`,
    };
    expect(await problems('prod', fluxHandOff, byArgument)).toEqual([]);
    const flag = ['--path="', '$', '{FLUX_PATH:-clusters/dev}"'].join('');
    const byEnv = {
      'bootstrap/flux/bootstrap.sh': lab('bootstrap/flux/bootstrap.sh').replace('--path=clusters/dev', flag),
      'infra/ansible/group_vars/k3s_prod/vars.yml': `${prodVars}\nflux_bootstrap_flux_cmd: "FLUX_PATH=clusters/prod {{ role_path | default('x') }}/../../../../bootstrap/flux/bootstrap.sh"\n`,
    };
    expect(await problems('prod', fluxHandOff, byEnv)).toEqual([]);
    // Without the variable the script's own fallback is what runs: dev's path, refused for prod.
    expect(
      await problems('prod', fluxHandOff, {
        'bootstrap/flux/bootstrap.sh': byEnv['bootstrap/flux/bootstrap.sh'],
      }),
    ).toEqual([expect.stringContaining('would bootstrap prod with --path=clusters/dev')]);
    expect(await problems('dev', fluxHandOff, { 'bootstrap/flux/bootstrap.sh': parameterised })).toEqual([
      expect.stringContaining('passes --path=$1, set at run time'),
    ]);
  });

  it('when it cannot tell the path, it refuses saying what it could not read', async () => {
    const templated = {
      'infra/ansible/roles/flux_bootstrap/defaults/main.yml':
        "flux_bootstrap_flux_cmd: \"{{ lookup('env', 'CMD') }}\"\n",
    };
    expect(await problems('prod', fluxHandOff, templated)).toEqual([
      expect.stringMatching(
        /^cannot tell which path prod's Flux hand-off would bootstrap: flux_bootstrap_flux_cmd in infra\/ansible\/roles\/flux_bootstrap\/defaults\/main.yml \(\{\{ lookup\('env', 'CMD'\) \}\}\) is a template neither the bot nor Ansible \(for k3s-prod-1\) can render: The lookup 'env' is not allowed here$/,
      ),
    ]);
    expect(await problems('prod', fluxHandOff, { 'bootstrap/flux/bootstrap.sh': undefined })).toEqual([
      "cannot tell which path prod's Flux hand-off would bootstrap: bootstrap/flux/bootstrap.sh (named by flux_bootstrap_flux_cmd in infra/ansible/roles/flux_bootstrap/defaults/main.yml) cannot be read",
    ]);
    const variable = {
      'bootstrap/flux/bootstrap.sh': `flux bootstrap github --path="clusters/${SHELL_ENV}"\n`,
    };
    expect(await problems('prod', fluxHandOff, variable)).toEqual([
      expect.stringContaining(`passes --path=clusters/${SHELL_ENV}, set at run time`),
    ]);
  });

  it('a production cluster needs an odd number of servers in hosts.ini, at least 3: the inventory counts, not the config', async () => {
    expect(await problems('prod', productionServers)).toEqual([
      'prod has 1 server in inventory/hosts.ini (k3s_prod: k3s-prod-1): a production cluster needs an odd number of servers, at least 3',
    ]);
    const racked = lab('infra/ansible/inventory/hosts.ini').replace(/^# (k3s-prod-[23] )/gm, '$1');
    expect(
      await problems('prod', productionServers, { 'infra/ansible/inventory/hosts.ini': racked }),
    ).toEqual([]);
  });

  it('names each configured node missing from the group the plays target', async () => {
    const check = nodesInInventory(['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3']);
    expect(await problems('prod', check)).toEqual([
      'k3s-prod-2 is still commented out of inventory/hosts.ini',
      'k3s-prod-3 is still commented out of inventory/hosts.ini',
    ]);
    const gone = lab('infra/ansible/inventory/hosts.ini').replace(/^k3s-dev-3 ansible_host.*$/m, '');
    expect(
      await problems('dev', nodesInInventory(['k3s-dev-3']), { 'infra/ansible/inventory/hosts.ini': gone }),
    ).toEqual(['k3s-dev-3 is in inventory/hosts.ini but not in the group k3s_servers the plays target']);
  });
});

describe('the founder check, with the API down, asks every server in hosts.ini whether k3s is installed', () => {
  const K3S_TEST = ['test', '-e', '/etc/rancher/k3s', '-o', '-e', '/var/lib/rancher/k3s'];
  /** Each dev server answers the k3s question by its name; the test's own argv, nothing else, is answered. */
  const servers = (answer: (server: string) => ScriptedReply) => (call: ShellCall) =>
    call.target.startsWith('k3s-dev-') && call.argv.join(' ') === K3S_TEST.join(' ')
      ? answer(call.target)
      : undefined;
  const check = async (answer: (server: string) => ScriptedReply) => {
    const ctx = contextFor('dev', {}, { apiDown: true, nodes: servers(answer) });
    return { ctx, problems: await founderInCluster.check(ctx, await readRepoFacts(ctx)) };
  };

  it('a first run only when every server answered and none has k3s', async () => {
    const { ctx, problems: found } = await check(() => ({ exitCode: 1 }));
    expect(found).toEqual([]);
    const asked = (ctx.shell as ReturnType<typeof createScriptedShell>).calls.filter(
      (c) => c.target !== 'ops',
    );
    expect(asked.map((c) => c.target).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(await isFirstRun(ctx)).toBe(true);
  });

  it('servers with k3s make it formed: refused with the founder procedure, and no first run', async () => {
    const { ctx, problems: found } = await check((server) => ({ exitCode: server === 'k3s-dev-1' ? 1 : 0 }));
    expect(found).toEqual([
      "dev's API does not answer (connect ECONNREFUSED 127.0.0.1:6443), but k3s is installed on k3s-dev-2, k3s-dev-3 " +
        '(/etc/rancher/k3s or /var/lib/rancher/k3s exists): the cluster is formed, and its founder k3s-dev-1 has no k3s (wiped?): ' +
        'k3s.yml would run --cluster-init on it beside the etcd the others hold. k3s-dev-1 is the --cluster-init founder ' +
        '(the k3s_primary group in hosts.ini): re-running k3s on it after a wipe founds a NEW cluster (fresh etcd) whose ' +
        'kube-vip contends for the same VIP. Move the founder role to another server in inventory/hosts.ini, commit, then reprovision k3s-dev-1',
    ]);
    expect(await isFirstRun(ctx)).toBe(false);
  });

  it('a server that does not answer, or cannot tell, leaves the first run unproven: each is named', async () => {
    const { problems: found } = await check((server) =>
      server === 'k3s-dev-2'
        ? { error: new Error('connect ETIMEDOUT 192.168.1.42:22') }
        : server === 'k3s-dev-3'
          ? { exitCode: 2, stderr: ['test: too many arguments'] }
          : { exitCode: 1 },
    );
    const unproven = (server: string, why: string) =>
      `dev's API does not answer (connect ECONNREFUSED 127.0.0.1:6443) and ${server} did not say whether k3s is installed there (${why}): ` +
      'the bot cannot prove a first run, in which alone k3s.yml may found the cluster with --cluster-init on k3s-dev-1';
    expect(found).toEqual([
      unproven('k3s-dev-2', 'connect ETIMEDOUT 192.168.1.42:22'),
      unproven('k3s-dev-3', `${K3S_TEST.join(' ')} exited 2: test: too many arguments`),
    ]);
  });

  it('a server hosts.ini lists but the config does not cannot be asked, and says why', async () => {
    const inventory = lab('infra/ansible/inventory/hosts.ini').replace(
      'k3s-dev-3 ansible_host=127.0.1.13',
      'k3s-dev-3 ansible_host=127.0.1.13 ansible_connection=local\nk3s-dev-4 ansible_host=127.0.1.14',
    );
    const ctx = contextFor(
      'dev',
      { 'infra/ansible/inventory/hosts.ini': inventory },
      { apiDown: true, nodes: servers(() => ({ exitCode: 1 })) },
    );
    expect(await founderInCluster.check(ctx, await readRepoFacts(ctx))).toEqual([
      expect.stringContaining(
        'k3s-dev-4 did not say whether k3s is installed there (it is not in the config (clusters.dev.nodes): no address or host key to ask it with)',
      ),
    ]);
  });
});
