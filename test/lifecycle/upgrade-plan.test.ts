import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import type { Step, StepContext } from '../../src/lifecycle/plan/step.js';
import { describePlan } from '../../src/lifecycle/plans/describe-plan.js';
import { createRepoFileCache } from '../../src/lifecycle/repo/repo-file-cache.js';
import { atApprovedCommit } from '../../src/lifecycle/upgrade/at-approved-commit.js';
import { onlyApprovedServer } from '../../src/lifecycle/upgrade/only-approved-server.js';
import { quorumStep } from '../../src/lifecycle/upgrade/quorum-step.js';
import { serverVersionGate } from '../../src/lifecycle/upgrade/server-version-gate.js';
import { stillRunsApprovedVersion } from '../../src/lifecycle/upgrade/still-runs-approved-version.js';
import { upgradeApprovalStep } from '../../src/lifecycle/upgrade/upgrade-approval-step.js';
import { type ApprovedUpgrade, UPGRADE_FACT } from '../../src/lifecycle/upgrade/upgrade-facts.js';
import { versionsAllowUpgrade } from '../../src/lifecycle/upgrade/versions-allow-upgrade.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { isMutating } from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryHostKeyPins } from '../support/memory-host-key-pins.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createMemoryKubeconfigs } from '../support/memory-kubeconfigs.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const ALL_VARS = 'infra/ansible/group_vars/all.yml';
const HOSTS_INI = 'infra/ansible/inventory/hosts.ini';
const ROLE_DEFAULTS = 'infra/ansible/roles/k3s_server/defaults/main.yml';
const labAllVars = readFileSync(new URL(`../lab/infra-repo/${ALL_VARS}`, import.meta.url), 'utf8');
const COMMIT = 'a'.repeat(40);

/** dev with each server at a version (config order k3s-dev-1..3) and the repo's files as given. */
function devContext(
  versions: readonly string[],
  files: Record<string, string | undefined> = { [ALL_VARS]: labAllVars },
  gitStatus: readonly string[] = [],
  inventoryVersions: Record<string, string | null> = {},
) {
  const memory = createMemoryKube();
  for (const [i, version] of versions.entries()) memory.setNodeVersion(`k3s-dev-${i + 1}`, version);
  const readFiles = opsRepoFiles(files);
  const shell = createScriptedShell(
    (call) =>
      readFiles(call) ??
      ansibleVersionReply(call, files, inventoryVersions) ??
      (call.argv.join(' ') === 'git rev-parse HEAD'
        ? { stdout: [COMMIT] }
        : call.argv[0] === 'git' && call.argv[1] === 'status'
          ? { stdout: gitStatus }
          : undefined),
  );
  const facts = new Map<string, unknown>();
  const notes: string[] = [];
  const ctx: StepContext = {
    jobId: 'job-9',
    stepId: '2-approve-upgrade',
    interrupted: false,
    shown: { read: async () => 0, write: async () => undefined },
    world,
    cluster: world.clusters.dev!,
    shell,
    kube: memory.kube,
    kubeconfigs: createMemoryKubeconfigs().keeper,
    clock: createInstantClock(),
    signal: new AbortController().signal,
    facts: {
      get: <T>(key: string) => facts.get(key) as T | undefined,
      set: async (key, value) => {
        facts.set(key, value);
      },
    },
    keptHostKeys: {},
    repoFiles: createRepoFileCache(undefined, async () => {}),
    hostKeyPins: createMemoryHostKeyPins().pins,
    approvedBy: ['U1'],
    progress: async () => undefined,
    output: () => undefined,
    note: async (text) => {
      notes.push(text);
    },
    gateFailed: async () => undefined,
  };
  return { ctx, memory, notes, facts, shell };
}

/**
 * `ansible <servers> -m debug -a var=k3s_version` as Ansible prints it: each host's value from its
 * inventory (group_vars/all.yml here, or the host's own override), "VARIABLE IS NOT DEFINED!" when
 * nothing there sets it (the role's defaults are not inventory).
 */
function ansibleVersionReply(
  call: ShellCall,
  files: Record<string, string | undefined>,
  overrides: Record<string, string | null>,
): ScriptedReply | undefined {
  if (call.argv[0] !== 'ansible' || !call.argv.includes('var=k3s_version')) return undefined;
  const inAllVars = /^k3s_version: (\S+)/m.exec(files[ALL_VARS] ?? '')?.[1];
  return {
    // null: a host hosts.ini does not list, which Ansible skips with a warning on stderr.
    stdout: call.argv[3]!.split(',').flatMap((host) =>
      overrides[host] === null
        ? []
        : [
            `${host} | SUCCESS => {`,
            `    "k3s_version": ${JSON.stringify(overrides[host] ?? inAllVars ?? 'VARIABLE IS NOT DEFINED!')}`,
            '}',
          ],
    ),
  };
}

const problemsOf = (ctx: StepContext) => versionsAllowUpgrade.check(ctx, undefined as never);

describe('upgrade <cluster>: parsing', () => {
  it('takes one cluster and changes it', () => {
    const parsed = parseLifecycleCommand('upgrade dev', world);
    expect(parsed).toMatchObject({ ok: true, command: { verb: 'upgrade', cluster: 'dev' } });
    expect(parsed.ok && isMutating(parsed.command)).toBe(true);
  });

  it.each([['upgrade'], ['upgrade nowhere'], ['upgrade dev v1.37.0+k3s1']])('refuses %s', (text) => {
    expect(parseLifecycleCommand(text, world).ok).toBe(false);
  });
});

describe('upgrade <cluster>: the plan', () => {
  const planOf = (cluster: string) => {
    const parsed = parseLifecycleCommand(`upgrade ${cluster}`, world);
    if (!parsed.ok) throw new Error(parsed.error);
    return buildPlan(parsed.command, world);
  };

  it('snapshots first, then takes one server at a time, the founder last, each through quorum, drain, k3s.yml on it alone, Ready, uncordon, verify', () => {
    const text = describePlan(planOf('dev'));
    const perServer = (n: number, server: string, k3sTarget = server) => [
      `${n}. quorum check → ${server}`,
      `${n + 1}. cordon + drain → ${server}`,
      `${n + 2}. k3s.yml → ${k3sTarget}`,
      `${n + 3}. back at the new version → ${server}`,
      `${n + 4}. uncordon → ${server}`,
      expect.stringMatching(new RegExp(`^${n + 5}\\. verify gates → dev`)),
    ];
    expect(text.split('\n').filter((line) => /^\d+\./.test(line))).toEqual([
      expect.stringMatching(
        /^1\. preconditions → dev: .*founder per hosts\.ini.*k3s versions, root on nodes$/,
      ),
      '2. ⚠ approve the upgrade → dev: each server whose k3s differs from k3s_version, one at a time',
      '3. etcd snapshot → a Ready server other than k3s-dev-2',
      ...perServer(4, 'k3s-dev-2'),
      ...perServer(10, 'k3s-dev-3'),
      ...perServer(16, 'k3s-dev-1', 'k3s-dev-1 (the founder: its play, on a formed cluster)'),
    ]);
    expect(text).toContain('ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-2');
    // The ids a resumed job finds its checkpoints by follow the same order.
    expect(
      planOf('dev')
        .steps.map((step) => step.id)
        .slice(0, 5),
    ).toEqual([
      '1-preconditions',
      '2-approve-upgrade',
      '3-etcd-snapshot',
      '4-quorum-k3s-dev-2',
      '5-cordon-drain-k3s-dev-2',
    ]);
  });

  it("runs prod's k3s.yml with prod's host groups and checks its vault", () => {
    const plan = planOf('prod');
    const text = describePlan(plan);
    expect(text).toContain(
      'playbooks/k3s.yml -e k3s_hosts=k3s_prod -e k3s_primary_hosts=k3s_prod_primary -e k3s_secondary_hosts=k3s_prod_secondary --limit k3s-prod-2',
    );
    expect(plan.steps[0]?.target).toContain('vault');
  });
});

describe('upgrade: the versions', () => {
  it("refuses a downgrade and a jump of more than one minor, naming each server's version and the target, in the order they would go", async () => {
    const { ctx } = devContext(['v1.38.0+k3s1', 'v1.34.2+k3s1', 'v1.36.0+k3s1']);
    expect(await problemsOf(ctx)).toEqual([
      'k3s-dev-2 runs v1.34.2+k3s1, more than one minor version below v1.36.4+k3s1: upgrade one minor version at a time',
      'k3s-dev-1 runs v1.38.0+k3s1, newer than v1.36.4+k3s1: a downgrade is refused',
    ]);
  });

  it('reads k3s_version as the cluster resolves it: the role defaults when group_vars set none, group_vars over them', async () => {
    const withoutVersion = labAllVars.replace(/^k3s_version:.*$/m, '');
    const defaults = devContext(['v1.35.1+k3s1', 'v1.35.1+k3s1', 'v1.35.1+k3s1'], {
      [ALL_VARS]: withoutVersion,
      [ROLE_DEFAULTS]: 'k3s_version: v1.37.0+k3s1\n',
    });
    expect(await problemsOf(defaults.ctx)).toEqual([
      'k3s-dev-2 runs v1.35.1+k3s1, more than one minor version below v1.37.0+k3s1: upgrade one minor version at a time',
      'k3s-dev-3 runs v1.35.1+k3s1, more than one minor version below v1.37.0+k3s1: upgrade one minor version at a time',
      'k3s-dev-1 runs v1.35.1+k3s1, more than one minor version below v1.37.0+k3s1: upgrade one minor version at a time',
    ]);
    const overridden = devContext(['v1.35.1+k3s1', 'v1.35.1+k3s1', 'v1.35.1+k3s1'], {
      [ALL_VARS]: labAllVars,
      [ROLE_DEFAULTS]: 'k3s_version: v1.37.0+k3s1\n',
    });
    expect(await problemsOf(overridden.ctx)).toEqual([]);
  });

  it("asks Ansible for each server's k3s_version as the play resolves it, and refuses servers that resolve to different targets, naming each", async () => {
    // A committed host_vars/k3s-dev-3.yml (or an inline var in hosts.ini) that group_vars do not show.
    const { ctx } = devContext(['v1.36.0+k3s1', 'v1.36.0+k3s1', 'v1.36.0+k3s1'], undefined, [], {
      'k3s-dev-3': 'v1.36.5+k3s1',
    });
    expect(await problemsOf(ctx)).toEqual([
      "k3s_version does not resolve to one target for dev's servers: k3s-dev-2 v1.36.4+k3s1, k3s-dev-3 v1.36.5+k3s1, k3s-dev-1 v1.36.4+k3s1; k3s.yml would install each its own: set it in one place for the whole cluster",
    ]);
    const ansible = (ctx.shell as ReturnType<typeof createScriptedShell>).calls.find(
      (call) => call.argv[0] === 'ansible',
    );
    expect(ansible?.argv).toEqual([
      'ansible',
      '-i',
      'inventory/hosts.ini',
      'k3s-dev-2,k3s-dev-3,k3s-dev-1',
      '-m',
      'ansible.builtin.debug',
      '-a',
      'var=k3s_version',
    ]);
  });

  it('refuses when Ansible does not find a server in hosts.ini: what k3s.yml would install there is unknown', async () => {
    const { ctx } = devContext(['v1.36.0+k3s1', 'v1.36.0+k3s1', 'v1.36.0+k3s1'], undefined, [], {
      'k3s-dev-3': null,
    });
    expect(await problemsOf(ctx)).toEqual([
      'Ansible finds no k3s-dev-3 in inventory/hosts.ini: what k3s_version k3s.yml would install there is unknown',
    ]);
  });

  it('an override every server resolves to is the target the approval names, not what group_vars say', async () => {
    const everyServer = {
      'k3s-dev-1': 'v1.37.1+k3s1',
      'k3s-dev-2': 'v1.37.1+k3s1',
      'k3s-dev-3': 'v1.37.1+k3s1',
    };
    const { ctx } = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1'], undefined, [], everyServer);
    const binding = await upgradeApprovalStep('2-approve-upgrade', 'dev').approval!.bind(ctx);
    expect(binding.targets).toBe(
      'k3s-dev-2 (v1.36.4+k3s1 → v1.37.1+k3s1), then k3s-dev-3 (v1.36.4+k3s1 → v1.37.1+k3s1), then k3s-dev-1 (v1.36.4+k3s1 → v1.37.1+k3s1)',
    );
    expect(binding.consequence).toContain(
      'restarted on k3s v1.37.1+k3s1 (the inventory: host_vars, hosts.ini or a child group, as Ansible resolves it)',
    );
  });

  it('refuses a k3s_version without its +k3sN revision, naming the file and the value', async () => {
    const { ctx } = devContext(['v1.36.0+k3s1', 'v1.36.0+k3s1', 'v1.36.0+k3s1'], {
      [ALL_VARS]: labAllVars.replace(/^k3s_version:.*$/m, 'k3s_version: v1.36.4'),
    });
    expect(await problemsOf(ctx)).toEqual([
      'k3s_version in infra/ansible/group_vars/all.yml is "v1.36.4", not a k3s release such as v1.36.4+k3s1 (the +k3sN is part of the name)',
    ]);
  });

  it('refuses a repo that sets no k3s_version: no target to guess', async () => {
    const { ctx } = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1'], {
      [ALL_VARS]: labAllVars.replace(/^k3s_version:.*$/m, ''),
    });
    expect(await problemsOf(ctx)).toEqual([
      'k3s_version is set nowhere for dev (roles/k3s_server/defaults, group_vars): no target version to upgrade to',
    ]);
  });
});

describe('upgrade: the approval', () => {
  const approval = () => upgradeApprovalStep('2-approve-upgrade', 'dev');

  it('lists the servers whose version differs in the order they go, each old → new, bound to the commit', async () => {
    const { ctx, facts } = devContext(['v1.36.0+k3s1', 'v1.36.4+k3s1', 'v1.35.9+k3s1']);
    const step = approval();
    expect(await step.approval!.required(ctx)).toBe(true);
    const binding = await step.approval!.bind(ctx);
    expect(binding.targets).toBe(
      'k3s-dev-3 (v1.35.9+k3s1 → v1.36.4+k3s1), then k3s-dev-1 (v1.36.0+k3s1 → v1.36.4+k3s1)',
    );
    expect(binding.commit).toBe(COMMIT);
    expect(binding.commandLine).toBe(
      'ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-3; then ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-1',
    );
    expect(facts.get(UPGRADE_FACT)).toEqual({
      target: 'v1.36.4+k3s1',
      commit: COMMIT,
      servers: [
        { server: 'k3s-dev-3', from: 'v1.35.9+k3s1' },
        { server: 'k3s-dev-1', from: 'v1.36.0+k3s1' },
      ],
    });
    expect((await step.approval!.current!(ctx)).fingerprint).toBe(binding.fingerprint);
  });

  it('a server that moved while the approval waited voids it (another fingerprint)', async () => {
    const { ctx, memory } = devContext(['v1.36.0+k3s1', 'v1.36.4+k3s1', 'v1.36.0+k3s1']);
    const step = approval();
    const binding = await step.approval!.bind(ctx);
    memory.setNodeVersion('k3s-dev-3', 'v1.36.4+k3s1');
    expect((await step.approval!.current!(ctx)).fingerprint).not.toBe(binding.fingerprint);
  });

  it('asks nothing when every server runs the target, and every server then skips', async () => {
    const { ctx } = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1']);
    const step = approval();
    expect(await step.approval!.required(ctx)).toBe(false);
    expect(await step.run(ctx)).toEqual({
      status: 'skipped',
      summary: 'every server already runs v1.36.4+k3s1: nothing to upgrade',
    });
    const ran: string[] = [];
    const server = onlyApprovedServer(
      'k3s-dev-2',
      stepThat(async () => ran.push('ran')),
    );
    expect(await server.run(ctx)).toEqual({
      status: 'skipped',
      summary: 'k3s-dev-2 already runs v1.36.4+k3s1',
    });
    expect(ran).toEqual([]);
  });
  it('refuses to run what appeared to upgrade after no approval was needed: nobody approved it', async () => {
    const { ctx, memory, facts } = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1']);
    const step = approval();
    expect(await step.approval!.required(ctx)).toBe(false);
    // Before run(): a server reinstalled lower (or the checkout moved, or the worker resumed later).
    memory.setNodeVersion('k3s-dev-3', 'v1.36.0+k3s1');
    await expect(step.run(ctx)).rejects.toThrow(
      'something to upgrade appeared after no approval was needed (k3s-dev-3 v1.36.0+k3s1 → v1.36.4+k3s1); run upgrade again',
    );
    expect(facts.get(UPGRADE_FACT)).toBeUndefined();
  });
});

describe("upgrade: a server's step that fails", () => {
  it('stops the upgrade there with every server old → new and what is left untouched', async () => {
    const { ctx, memory, notes, facts } = devContext(['v1.36.0+k3s1', 'v1.37.0+k3s1', 'v1.36.0+k3s1']);
    memory.setNodeReady('k3s-dev-3', false, 'KubeletNotReady');
    const approved: ApprovedUpgrade = {
      target: 'v1.37.0+k3s1',
      commit: COMMIT,
      servers: [
        { server: 'k3s-dev-2', from: 'v1.36.0+k3s1' },
        { server: 'k3s-dev-3', from: 'v1.36.0+k3s1' },
        { server: 'k3s-dev-1', from: 'v1.36.0+k3s1' },
      ],
    };
    facts.set(UPGRADE_FACT, approved);
    const failing = onlyApprovedServer(
      'k3s-dev-3',
      stepThat(async () => {
        throw new Error('k3s-dev-3 did not come back');
      }),
    );
    await expect(failing.run(ctx)).rejects.toThrow('k3s-dev-3 did not come back');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.split('\n')).toEqual([
      'The upgrade stopped at test step of k3s-dev-3. Every server now:',
      'k3s-dev-2: v1.36.0+k3s1 → v1.37.0+k3s1 (upgraded) · Ready · schedulable · etcd member',
      'k3s-dev-3: v1.36.0+k3s1 (not upgraded; target v1.37.0+k3s1) · NotReady (KubeletNotReady) · schedulable · etcd member',
      'k3s-dev-1: v1.36.0+k3s1 (not upgraded; target v1.37.0+k3s1) · Ready · schedulable · etcd member',
      expect.stringMatching(
        /^Untouched: k3s-dev-1\. By hand from here: find out why test step failed on k3s-dev-3 \(k3s itself: `journalctl -u k3s` there\); .*run the upgrade again: servers already at v1\.37\.0\+k3s1 are skipped$/,
      ),
    ]);
  });
});

function stepThat(run: () => Promise<unknown>): Step {
  return {
    id: 'x',
    title: 'test step',
    target: 'k3s-dev-2',
    async run() {
      await run();
      return { status: 'succeeded', summary: 'ran' };
    },
  };
}

describe('upgrade: right before each server', () => {
  const approved = (commit: string): ApprovedUpgrade => ({
    target: 'v1.37.0+k3s1',
    commit,
    servers: [{ server: 'k3s-dev-2', from: 'v1.36.4+k3s1' }],
  });

  it("k3s.yml runs only at the approved commit, from a clean checkout: it installs what the checkout's k3s_version says", async () => {
    const moved = devContext([]);
    moved.facts.set(UPGRADE_FACT, approved('b'.repeat(40)));
    expect(await atApprovedCommit.check(moved.ctx, undefined as never)).toEqual([
      `the infra repo moved from bbbbbbbbbbbb (approved) to aaaaaaaaaaaa: k3s.yml would install what the new commit says; run the upgrade again to approve it`,
    ]);
    const dirty = devContext([], undefined, ['M  infra/ansible/group_vars/all.yml']);
    dirty.facts.set(UPGRADE_FACT, approved(COMMIT));
    expect(await atApprovedCommit.check(dirty.ctx, undefined as never)).toEqual([
      expect.stringContaining('infra/ansible/group_vars/all.yml'),
    ]);
    const clean = devContext([]);
    clean.facts.set(UPGRADE_FACT, approved(COMMIT));
    expect(await atApprovedCommit.check(clean.ctx, undefined as never)).toEqual([]);
  });

  it('k3s.yml runs on a server only while it still runs the version approved as its "from": a server reinstalled lower is refused, by name', async () => {
    const check = (ctx: StepContext) => stillRunsApprovedVersion('k3s-dev-2').check(ctx, undefined as never);
    const reinstalled = devContext(['v1.36.4+k3s1', 'v1.35.2+k3s1', 'v1.36.4+k3s1']);
    reinstalled.facts.set(UPGRADE_FACT, approved(COMMIT));
    expect(await check(reinstalled.ctx)).toEqual([
      'k3s-dev-2 runs v1.35.2+k3s1, not v1.36.4+k3s1 as approved: the one-minor-at-a-time rule was judged for v1.36.4+k3s1 → v1.37.0+k3s1; run the upgrade again',
    ]);
    const asApproved = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1']);
    asApproved.facts.set(UPGRADE_FACT, approved(COMMIT));
    expect(await check(asApproved.ctx)).toEqual([]);
    // Already at the target: a k3s.yml run interrupted after the restart, approved again.
    const atTarget = devContext(['v1.36.4+k3s1', 'v1.37.0+k3s1', 'v1.36.4+k3s1']);
    atTarget.facts.set(UPGRADE_FACT, approved(COMMIT));
    expect(await check(atTarget.ctx)).toEqual([]);
  });

  it("the plan's k3s.yml of a server reinstalled lower since the approval refuses to start", async () => {
    const parsed = parseLifecycleCommand('upgrade dev', world);
    if (!parsed.ok) throw new Error(parsed.error);
    const k3s = buildPlan(parsed.command, world).steps.find((step) => step.id === '6-k3s-k3s-dev-2')!;
    const { ctx, facts, shell } = devContext(['v1.36.4+k3s1', 'v1.35.2+k3s1', 'v1.36.4+k3s1'], {
      [ALL_VARS]: labAllVars,
      [HOSTS_INI]: readFileSync(new URL(`../lab/infra-repo/${HOSTS_INI}`, import.meta.url), 'utf8'),
    });
    facts.set(UPGRADE_FACT, approved(COMMIT));
    await expect(k3s.run(ctx)).rejects.toThrow('k3s-dev-2 runs v1.35.2+k3s1, not v1.36.4+k3s1 as approved');
    expect(shell.calls.some((call) => call.argv[0] === 'ansible-playbook')).toBe(false);
  });

  it('the quorum check refuses to take a server down while another is NotReady', async () => {
    const { ctx, memory } = devContext([]);
    memory.setNodeReady('k3s-dev-1', false);
    await expect(quorumStep('4-quorum-k3s-dev-2', 'k3s-dev-2').run(ctx)).rejects.toThrow(
      'k3s-dev-1 is NotReady: taking k3s-dev-2 away as well would lose etcd quorum',
    );
  });

  it('a server Ready again but still on its old version is not back yet', async () => {
    const { ctx, memory } = devContext(['v1.36.4+k3s1', 'v1.36.4+k3s1', 'v1.36.4+k3s1']);
    const gate = serverVersionGate('k3s-dev-2', 'v1.37.0+k3s1');
    expect(await gate.evaluate(ctx)).toEqual({
      passed: false,
      observed: 'k3s-dev-2 still runs v1.36.4+k3s1',
    });
    memory.setNodeVersion('k3s-dev-2', 'v1.37.0+k3s1');
    expect(await gate.evaluate(ctx)).toEqual({
      passed: true,
      observed: 'k3s-dev-2 runs v1.37.0+k3s1 with the etcd role',
    });
  });
});
