import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import { TOOLCHAIN_STAMP_NAME } from '../../src/lifecycle/playbook/toolchain-stamp.js';
import { HOST_CLOCK_SKEW_MS } from '../../src/lifecycle/remote/exec-detached.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { loadExampleWorld } from '../support/example-world.js';
import { answerK3sServer } from '../support/k3s-server-replies.js';
import { listHostsOutput } from '../support/list-hosts-output.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { createScriptedShell, type ShellCall } from '../support/scripted-shell.js';
import { waitFor } from '../support/wait-for.js';

const lab = (path: string) => readFileSync(new URL(`../lab/infra-repo/${path}`, import.meta.url), 'utf8');
const CILIUM_FILES: Record<string, string> = {
  'platform/cilium/helmrelease.yaml': lab('platform/cilium/helmrelease.yaml'),
  'platform/cilium/values.yaml': lab('platform/cilium/values.yaml'),
  'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2': lab(
    'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2',
  ),
  'infra/ansible/roles/cilium/defaults/main.yml': lab('infra/ansible/roles/cilium/defaults/main.yml'),
  // What k3s_api_host renders from (the inventory's servers, dev's group_vars), and every ansible run's
  // KUBECONFIG, named by cluster_kubeconfig_name.
  'infra/ansible/inventory/hosts.ini': lab('infra/ansible/inventory/hosts.ini'),
  'infra/ansible/group_vars/all.yml': lab('infra/ansible/group_vars/all.yml'),
};

const DEV_SERVERS = ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'];
const FLUX_API_HOST = ['$', '{K3S_API_HOST}'].join('');

const PLAYBOOK_OK = [
  'PLAY [Cilium CNI] **************************************************************',
  '',
  'TASK [cilium : Install Cilium with Helm] ***************************************',
  'changed: [k3s-dev-1]',
  '',
  'PLAY RECAP *********************************************************************',
  'k3s-dev-1                  : ok=1    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0   ',
];

/** cilium.yml failing on k3s-dev-2: its play and task, the given lines (ending in the fatal), its recap. */
const failingOnDev2 = (...lines: string[]) => [
  'PLAY [Cilium CNI] **************************************************************',
  'TASK [cilium : Install Cilium with Helm] ***************************************',
  ...lines,
  'PLAY RECAP *********************************************************************',
  'k3s-dev-2                  : ok=0    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0   ',
];

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

function setup(
  options: {
    files?: Record<string, string>;
    commit?: () => string;
    playbook?: string[];
    exit?: number;
    dirty?: string[];
    listed?: string[];
    syntaxError?: string;
    collections?: () => string[];
    /** What each git command waits for, if anything. */
    gitWaits?: () => Promise<unknown> | undefined;
    /** The ops host's clock and when its toolchain's places last changed (epoch seconds). */
    toolchainClock?: () => { readonly now: number; readonly changedAt: number };
    /** The job record's folder tag; absent as on a record of a version before tags. */
    folderTag?: string;
    /** When the job was recorded (epoch ms). */
    recordedAt?: number;
  } = {},
) {
  const files = { ...CILIUM_FILES, ...options.files };
  const collections = () => options.collections?.() ?? ['kubernetes.core 5.0.0'];
  const shell = createScriptedShell((call: ShellCall) => {
    const server = answerK3sServer(call);
    if (server) return server;
    const [program, ...args] = call.argv;
    if (program === 'cat') {
      const path = args[1]!.replace('/home/ops/homelab/', '');
      return files[path] === undefined
        ? { exitCode: 1, stderr: ['No such file'] }
        : { stdout: files[path]!.split('\n') };
    }
    if (program === 'git') {
      const hold = options.gitWaits?.()?.then(() => undefined);
      if (args[0] === 'status') return { stdout: options.dirty ?? [], hold };
      return { stdout: [options.commit?.() ?? 'a'.repeat(40)], hold };
    }
    if (program === 'ansible-galaxy') return { stdout: collections() };
    if (program === 'sh' && args[2] === TOOLCHAIN_STAMP_NAME) {
      // The ops host's places change with what they hold: here, the collections.
      const { now, changedAt } = options.toolchainClock?.() ?? {
        now: 1_800_000_000,
        changedAt: 1_700_000_000,
      };
      const digest = createHash('sha256').update(collections().join('\n')).digest('hex');
      return { stdout: [digest, String(changedAt), String(now)] };
    }
    if (program === 'ansible-playbook') {
      if (call.argv.includes('--syntax-check')) {
        return options.syntaxError
          ? { exitCode: 4, stderr: ['[WARNING]: noise', `ERROR! ${options.syntaxError}`] }
          : { stdout: ['', 'playbook: playbooks/cilium.yml'] };
      }
      if (call.argv.includes('--list-hosts')) {
        return {
          stdout: listHostsOutput('cilium.yml', [
            { pattern: 'k3s_servers', name: 'Cilium CNI', hosts: options.listed ?? DEV_SERVERS },
          ]),
        };
      }
      if (call.argv.includes('--list-tasks'))
        return { stdout: ['playbook: playbooks/cilium.yml', '  play #1 (k3s_servers): Cilium CNI'] };
      return { stdout: options.playbook ?? PLAYBOOK_OK, exitCode: options.exit ?? 0 };
    }
    return undefined;
  });
  const clock = createInstantClock();
  const kube = createMemoryKube();
  const approvals = createMemoryApprovalDesk({ now: clock.now, timeoutMs: 30 * 60_000 });
  const checkpoints = createMemoryCheckpointStore();
  const reporter = createRecordingReporter();
  const run = (
    command: LifecycleCommand = { verb: 'cilium', cluster: 'dev' },
    signal = new AbortController().signal,
    runWorld = world,
    change: (plan: Plan) => Plan = (plan) => plan,
  ) =>
    runPlan(change(buildPlan(command, runWorld)), {
      jobId: 'job-1',
      folderTag: options.folderTag,
      recordedAt: options.recordedAt,
      world: runWorld,
      shell,
      kube: kube.kube,
      clock,
      checkpoints,
      approvals: approvals.desk,
      reporter,
      signal,
      redact: createRedactor(['configured-secret-value']),
    });
  const playbookRuns = () =>
    shell.calls.filter(
      (c) =>
        c.argv[0] === 'ansible-playbook' &&
        !c.attach &&
        !['--check', '--list-tasks', '--list-hosts', '--syntax-check'].some((flag) => c.argv.includes(flag)),
    ).length;
  return { files, shell, clock, kube, approvals, checkpoints, reporter, run, playbookRuns };
}

describe('engine: cilium dev with fakes of every port', () => {
  it('stops before the rollout for approval bound to commit + argv with a check preview, then runs once approved', async () => {
    const t = setup();
    const first = await t.run();
    expect(first).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(t.playbookRuns()).toBe(0);
    const request = t.approvals.requests[0]!;
    expect(request.binding.commit).toBe('a'.repeat(40));
    expect(request.binding.commandLine).toBe(
      '[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml',
    );
    expect(request.binding.preview).toMatchObject({
      ran: true,
      changedTasks: { 'k3s-dev-1': ['cilium : Install Cilium with Helm'] },
    });
    expect(
      t.shell.calls.some(
        (c) =>
          c.argv.join(' ') === 'ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml --check --diff',
      ),
    ).toBe(true);

    t.approvals.approve('2-cilium');
    const second = await t.run();
    expect(second).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(t.playbookRuns()).toBe(1);
    const texts = t.reporter.texts();
    expect(texts).toContain('2-cilium play 1/1, task 1: cilium : Install Cilium with Helm');
    expect(texts.find((text) => text.startsWith('3-cilium-rollout succeeded'))).toMatch(
      /no pod recreated: same ControllerRevision rev1, all 3 agent ages unchanged/,
    );
    expect(texts.at(-1)).toBe('job succeeded: all 8 steps done');
  });

  it('redacts secrets a playbook prints, including every line of a private key, before anything is reported', async () => {
    const secretLines = [
      'slack_bot_token: xoxb-1111111111-2222222222222-LabFakeSlackTokenNotReal',
      'ansible_become_password: hunter2-lab-not-a-real-password',
      'echo configured-secret-value',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      'QyNTUxOQAAACBsYWJmYWtla2V5bGFiZmFrZWtleWxhYmZha2VrZXlsYWIAAAAAAAAAAAAA',
      '-----END OPENSSH PRIVATE KEY-----',
      'after the key',
    ];
    const t = setup({ playbook: [...PLAYBOOK_OK.slice(0, 3), ...secretLines, ...PLAYBOOK_OK.slice(3)] });
    await t.run();
    t.approvals.approve('2-cilium');
    await t.run();
    const everything = `${t.reporter.lines.join('\n')}\n${JSON.stringify(t.reporter.events)}`;
    for (const secret of [
      'LabFakeSlackToken',
      'hunter2',
      'configured-secret-value',
      'b3BlbnNzaC1rZXkt',
      'QyNTUxOQAAACBs',
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(t.reporter.lines).toContain('after the key');
  });

  it('redacts the check-mode preview (a k3s token in a diff line, a vault block) before it is stored or shown for approval', async () => {
    const token = `K10${'c'.repeat(64)}::server:previewsecret0123456789`;
    const t = setup({
      playbook: [
        'PLAY [Cilium CNI] **************************************************************',
        'TASK [cilium : Render the join config] *****************************************',
        '--- before: /etc/rancher/k3s/config.yaml',
        '+++ after: /etc/rancher/k3s/config.yaml',
        '@@ -1,2 +1,6 @@',
        `+token: ${token}`,
        `+agent-token: "${token.replace('server', 'node')}"`,
        '+become_password: !vault |',
        '+          $ANSIBLE_VAULT;1.1;AES256',
        `+          ${'3'.repeat(80)}`,
        '+node-name: k3s-dev-1',
        '',
        'changed: [k3s-dev-1]',
        'PLAY RECAP *********************************************************************',
        'k3s-dev-1                  : ok=1    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0   ',
      ],
    });
    expect(await t.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    const preview = t.approvals.requests[0]!.binding.preview!;
    expect(preview.diffExcerpt).toContain('+node-name: k3s-dev-1');
    expect(preview.diffExcerpt).toContain('+token: [REDACTED]');
    const stored = JSON.stringify([t.approvals.requests, [...t.checkpoints.records], t.reporter.events]);
    for (const secret of ['previewsecret0123456789', '3'.repeat(40)]) expect(stored).not.toContain(secret);
  });

  it('output that broke the old JSON round trip (password=abc"d, an unterminated key) still ends the job with an outcome', async () => {
    const t = setup({
      exit: 2,
      playbook: failingOnDev2(
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEowIBAAKCAQEAunterminatedkeybody',
        'fatal: [k3s-dev-2]: FAILED! => {"changed": false, "msg": "helm login password=abc\\"dsecret failed"}',
      ),
    });
    await t.run();
    t.approvals.approve('2-cilium');
    const result = await t.run();
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.reporter.events.at(-1)).toMatchObject({ type: 'plan-finished', outcome: 'failed' });
    const everything = JSON.stringify([
      result,
      t.reporter.events,
      t.reporter.lines,
      [...t.checkpoints.records],
    ]);
    for (const secret of ['dsecret', 'unterminatedkeybody']) expect(everything).not.toContain(secret);
  });

  it('a rejection ends the job and the playbook never runs', async () => {
    const t = setup();
    await t.run();
    t.approvals.reject('2-cilium', 'U0ALICE');
    expect(await t.run()).toMatchObject({
      status: 'finished',
      outcome: 'rejected',
      summary: 'cilium.yml rejected by U0ALICE',
    });
    expect(t.playbookRuns()).toBe(0);
  });

  it('an unanswered approval expires after the timeout', async () => {
    const t = setup();
    await t.run();
    t.clock.advance(30 * 60_000);
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'expired' });
    expect(t.playbookRuns()).toBe(0);
  });

  it('voids the approval and asks again, showing both commits, when the infra repo moved', async () => {
    let commit = 'a'.repeat(40);
    const t = setup({ commit: () => commit });
    await t.run();
    t.approvals.approve('2-cilium');
    commit = 'b'.repeat(40);
    expect(await t.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(t.approvals.voided[0]!.reason).toBe('the infra repo moved from aaaaaaaaaaaa to bbbbbbbbbbbb');
    expect(t.approvals.requests[1]).toMatchObject({
      previousCommit: 'a'.repeat(40),
      binding: { commit: 'b'.repeat(40) },
    });
    expect(t.playbookRuns()).toBe(0);
  });

  it('voids the approval when the config changed the argv since it was given, showing both command lines', async () => {
    const t = setup();
    await t.run();
    t.approvals.approve('2-cilium');
    const dev = world.clusters.dev!;
    const reloaded: WorldConfig = {
      ...world,
      clusters: { ...world.clusters, dev: { ...dev, extraVars: { cilium_debug: 'true' } } },
    };
    expect(await t.run(undefined, undefined, reloaded)).toMatchObject({
      status: 'waiting',
      stepId: '2-cilium',
    });
    expect(t.approvals.voided[0]!.reason).toBe(
      'the command line was `[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml`, ' +
        'now `[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml -e cilium_debug=true`',
    );
    expect(t.approvals.requests[1]!.warning).toMatch(
      /The approved run is not what would run now: the command line was/,
    );
    expect(t.playbookRuns()).toBe(0);
  });

  it('voids the approval when a collection on the ops host changed since it was given: the binding covers Ansible, its config and collections', async () => {
    let version = '5.0.0';
    const t = setup({
      collections: () => ['# /root/.ansible/collections/ansible_collections', `kubernetes.core ${version}`],
    });
    await t.run();
    t.approvals.approve('2-cilium');
    version = '6.0.0';
    expect(await t.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(t.approvals.voided).toHaveLength(1);
    expect(t.approvals.voided[0]!.reason).toBe(
      'Ansible on the ops host (its version, its settings or its collections) changed since the approval',
    );
    expect(t.playbookRuns()).toBe(0);
    const reads = t.shell.calls.map((call) => call.argv.join(' '));
    expect(reads).toContain('ansible --version');
    expect(reads).toContain('ansible-config dump --only-changed');
  });

  const toolchainReads = (t: ReturnType<typeof setup>) =>
    t.shell.calls.filter((call) => call.argv[0] === 'ansible-galaxy').length;
  const stamps = (t: ReturnType<typeof setup>) =>
    t.shell.calls.filter((call) => call.argv[0] === 'sh' && call.argv[3] === TOOLCHAIN_STAMP_NAME);

  it('reads the toolchain whole once: at the resume a stamp of its places shows it unchanged, and the approved run goes on', async () => {
    const t = setup();
    await t.run();
    expect(toolchainReads(t)).toBe(1);
    const versionReads = () =>
      t.shell.calls.filter((call) => call.argv.join(' ') === 'ansible --version').length;
    const versionReadsAsked = versionReads();
    t.approvals.approve('2-cilium');
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(t.approvals.voided).toHaveLength(0);
    expect(toolchainReads(t)).toBe(1);
    // The rollout's ansible.cfg check takes the answer the stamp proved too: no Python starts at all.
    expect(versionReads()).toBe(versionReadsAsked);
    expect(t.playbookRuns()).toBe(1);
    // The stamp lists exactly the places Ansible's own answers named, each as find must take it: absolute.
    expect(stamps(t).at(-1)!.argv.slice(4)).toEqual([
      'file:/usr/bin/ansible',
      'file:/usr/bin/python3',
      'file:/home/ops/homelab/infra/ansible/ansible.cfg',
      'package:/usr/lib/python3/dist-packages/ansible',
      'collections:/home/ops/.ansible/collections/ansible_collections',
      'collections:/usr/share/ansible/collections/ansible_collections',
      'import:/usr/lib/python311.zip',
      'import:/usr/lib/python3.11',
      'import:/usr/lib/python3.11/lib-dynload',
      'import:/usr/local/lib/python3.11/dist-packages',
      'import:/usr/lib/python3/dist-packages',
      'import:/home/ops/.local/lib/python3.11/site-packages',
    ]);
  });

  it('stamps the toolchain at the resume without waiting for any repo read (its variables need none)', async () => {
    let stamped: Promise<unknown> | undefined;
    const t = setup({ gitWaits: () => stamped });
    await t.run();
    t.approvals.approve('2-cilium');
    const before = stamps(t).length;
    stamped = waitFor('the resume stamping the toolchain', () => stamps(t).length > before);
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(toolchainReads(t)).toBe(1);
  });

  it('keeps no read its places changed around: one may have landed between the read and its stamp, so the resume reads whole', async () => {
    const t = setup({ toolchainClock: () => ({ now: 1_800_000_000, changedAt: 1_799_999_999 }) });
    await t.run();
    t.approvals.approve('2-cilium');
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(toolchainReads(t)).toBe(2);
  });

  it('refuses a disruptive step whose playbook fails --syntax-check, before asking anyone', async () => {
    const t = setup({ syntaxError: "'helm_upgrade' is not a valid attribute for a Play" });
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.reporter.planFailure()?.message).toBe(
      "cilium.yml fails ansible-playbook --syntax-check: ERROR! 'helm_upgrade' is not a valid attribute for a Play",
    );
    expect(t.playbookRuns()).toBe(0);
  });

  it('a play ansible skips with "no hosts matched" fails the step, though ansible exits 0', async () => {
    const t = setup({
      playbook: [
        'PLAY [Cilium CNI (Gateway API CRDs, Helm install)] ******************************',
        'skipping: no hosts matched',
        '',
        'PLAY RECAP *********************************************************************',
      ],
    });
    await t.run();
    t.approvals.approve('2-cilium');
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.reporter.planFailure()).toMatchObject({
      code: 'PLAYBOOK_FAILED',
      message:
        'cilium.yml ran no host for play "Cilium CNI (Gateway API CRDs, Helm install)" ("skipping: no hosts matched"): inventory/hosts.ini does not give it the nodes',
    });
  });

  it('refuses a disruptive step on a dirty infra checkout, naming the files, before asking anyone', async () => {
    const t = setup({
      dirty: [' M infra/ansible/roles/cilium/templates/cilium-values.yaml.j2', '?? notes.txt'],
    });
    const result = await t.run();
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.reporter.planFailure()).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining(
        'uncommitted changes (infra/ansible/roles/cilium/templates/cilium-values.yaml.j2, notes.txt)',
      ),
    });
    expect(t.playbookRuns()).toBe(0);
  });

  it("refuses with every reason at once: a dirty checkout and hosts that are not the step's", async () => {
    const t = setup({
      dirty: [' M infra/ansible/inventory/hosts.ini'],
      listed: ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-4'],
    });
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(0);
    const failure = t.reporter.planFailure();
    expect(failure?.code).toBe('PRECONDITION_FAILED');
    expect(failure?.message).toMatch(/^cilium\.yml was not put up for approval, for 2 reasons: /);
    expect(failure?.message).toContain('uncommitted changes (infra/ansible/inventory/hosts.ini)');
    expect(failure?.message).toContain('cilium.yml would not run on exactly k3s-dev-1, k3s-dev-2, k3s-dev-3');
    expect(t.playbookRuns()).toBe(0);
  });

  it('refuses to run an approved step when the checkout became dirty after the approval', async () => {
    const dirty: string[] = [];
    const t = setup({ dirty });
    await t.run();
    t.approvals.approve('2-cilium');
    dirty.push(' M infra/ansible/inventory/hosts.ini');
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.reporter.planFailure()?.message).toContain(
      'uncommitted changes (infra/ansible/inventory/hosts.ini)',
    );
    expect(t.playbookRuns()).toBe(0);
  });

  it('fails a playbook step whose --list-hosts is not exactly its nodes, before the playbook runs', async () => {
    const t = setup({ listed: ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-4'] });
    await t.run();
    // The approval request already proves the targets: the mismatch is refused before anyone is asked.
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.reporter.planFailure()?.message).toBe(
      "cilium.yml would not run on exactly k3s-dev-1, k3s-dev-2, k3s-dev-3: k3s-dev-3 is in no play's hosts " +
        '(not in the groups inventory/hosts.ini gives them); it would also run on k3s-dev-4, which this step does not claim',
    );
    expect(t.playbookRuns()).toBe(0);
  });

  /** The worker died while 2-cilium ran: its checkpoint says "running" with the used approval. */
  async function interruptCilium(t: ReturnType<typeof setup>, change?: (plan: Plan) => Plan) {
    await t.run(undefined, undefined, undefined, change);
    t.approvals.approve('2-cilium');
    const approved = await t.approvals.desk.state('2-cilium');
    await t.checkpoints.set('2-cilium', {
      status: 'running',
      startedAt: 1,
      data: { approvalId: (approved as { id: string }).id },
    });
  }
  const DETACHED_ROOT = '/home/ops/homelab/.cache/cluster-bot';

  // A job recorded by the version before folder tags (none in its record) is resumed into the
  // folder that version started its command in: started again elsewhere, it would run twice.
  it.each([
    ['with its record’s folder tag', '0a1b2c3d4e5f', 'job-1-0a1b2c3d4e5f'],
    ['recorded before folder tags, in its legacy folder', undefined, 'job-1'],
  ])(
    'a detached disruptive step interrupted while running is followed under its approval, never started again (%s)',
    async (_, folderTag, jobFolder) => {
      const t = setup({ folderTag });
      await interruptCilium(t);
      t.shell.detached.set(`${DETACHED_ROOT}/${jobFolder}/2-cilium`, 'running');
      await t.checkpoints.set('_shown:2-cilium', { status: 'running', data: { lines: 41 } });
      expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(t.playbookRuns()).toBe(0);
      expect(t.shell.calls.filter((call) => call.attach)).toMatchObject([
        { argv: ['ansible-playbook', '-i', 'inventory/hosts.ini', 'playbooks/cilium.yml'] },
      ]);
      expect(t.approvals.requests).toHaveLength(1);
      expect(t.approvals.voided).toEqual([]);
      expect(t.reporter.texts()).toContain(
        '2-cilium worker restarted; following the running `cilium.yml` from line 42',
      );
    },
  );

  const RECORDED_AT = Date.UTC(2026, 11, 6, 8, 0);

  it.each([
    ['ended', 'with no start time'],
    ['running', 'started before this job was recorded'],
  ] as const)(
    'an interrupted step never follows a foreign run in the folder its job id alone would name: it starts its own (%s, %s)',
    async (state, how) => {
      const t = setup({ folderTag: '0a1b2c3d4e5f', recordedAt: RECORDED_AT });
      await interruptCilium(t);
      // Another deployment's (or a reset Redis's) job-1 ran cilium.yml on this ops host.
      t.shell.detached.set(`${DETACHED_ROOT}/job-1/2-cilium`, state);
      if (how !== 'with no start time')
        t.shell.startedAt.set(`${DETACHED_ROOT}/job-1/2-cilium`, RECORDED_AT - HOST_CLOCK_SKEW_MS - 1_000);
      expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(t.playbookRuns()).toBe(1);
      expect(t.shell.calls.filter((call) => call.attach)).toEqual([]);
      expect(t.reporter.texts().filter((text) => text.includes('worker restarted'))).toEqual([]);
    },
  );

  // A rolling update: a worker of the version before tags took this tagged job and started cilium.yml
  // in the legacy folder, then was stopped; started again in the tagged folder, Cilium rolls out twice.
  it.each([
    ['a minute after the job was recorded', 60_000],
    ['30 s before it by a host clock running behind the bot’s', -30_000],
  ])(
    'an interrupted tagged step follows its run a worker before tags started in the legacy folder %s',
    async (_when, offsetMs) => {
      const t = setup({ folderTag: '0a1b2c3d4e5f', recordedAt: RECORDED_AT });
      await interruptCilium(t);
      t.shell.detached.set(`${DETACHED_ROOT}/job-1/2-cilium`, 'running');
      t.shell.startedAt.set(`${DETACHED_ROOT}/job-1/2-cilium`, RECORDED_AT + offsetMs);
      await t.checkpoints.set('_shown:2-cilium', { status: 'running', data: { lines: 41 } });
      expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(t.playbookRuns()).toBe(0);
      expect(t.shell.calls.filter((call) => call.attach)).toMatchObject([
        {
          argv: ['ansible-playbook', '-i', 'inventory/hosts.ini', 'playbooks/cilium.yml'],
          folder: `${DETACHED_ROOT}/job-1/2-cilium`,
        },
      ]);
      expect(t.reporter.texts()).toEqual(
        expect.arrayContaining([
          `2-cilium a worker of a version before folder tags started this step's command in ${DETACHED_ROOT}/job-1/2-cilium on ops, after this job was recorded (clocks two minutes apart allowed): it is this job's, followed there`,
          '2-cilium worker restarted; following the running `cilium.yml` from line 42',
        ]),
      );
    },
  );

  it('a detached disruptive step interrupted before its command started runs it under its approval', async () => {
    const t = setup();
    await interruptCilium(t);
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(t.playbookRuns()).toBe(1);
    expect(t.approvals.requests).toHaveLength(1);
  });

  it('a disruptive step that does not run detached, interrupted, is not re-run without a fresh approval', async () => {
    const t = setup();
    const undetached = (plan: Plan): Plan => ({
      ...plan,
      steps: plan.steps.map((step) => ({ ...step, detached: false })),
    });
    await interruptCilium(t, undetached);
    expect(await t.run(undefined, undefined, undefined, undetached)).toMatchObject({
      status: 'waiting',
      stepId: '2-cilium',
    });
    expect(t.playbookRuns()).toBe(0);
    expect(t.approvals.requests[1]!.warning).toMatch(/was interrupted while running/);
    expect(t.reporter.texts()).toContain(
      '2-cilium cilium.yml was interrupted while running; it will not run again without a fresh approval.',
    );
    t.approvals.approve('2-cilium');
    expect(await t.run(undefined, undefined, undefined, undetached)).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    expect(t.playbookRuns()).toBe(1);
  });

  it('resumes at the first unfinished step and repeats an interrupted safe step with a note', async () => {
    const t = setup();
    await t.run();
    t.approvals.approve('2-cilium');
    await t.run();
    const callsBefore = t.shell.calls.length;
    await t.checkpoints.set('4-verify', { status: 'running', startedAt: 1 });
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    // Only the verify step ran again: nothing on the ops host, only its reads of each server's k3s config.
    const again = t.shell.calls.slice(callsBefore).map((call) => call.target);
    expect(new Set(again)).toEqual(new Set(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']));
    expect(t.reporter.texts()).toContain(
      '4-verify verify gates was interrupted (the worker stopped); running it again, it is safe to repeat.',
    );
  });

  it('a failing playbook is summarised as host + task + msg and the rest is not run', async () => {
    const t = setup({
      exit: 2,
      playbook: failingOnDev2(
        'fatal: [k3s-dev-2]: FAILED! => {"changed": false, "msg": "helm upgrade failed: timed out"}',
      ),
    });
    await t.run();
    t.approvals.approve('2-cilium');
    const result = await t.run();
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.reporter.texts()).toEqual(
      expect.arrayContaining([
        '2-cilium failed: cilium.yml failed: k3s-dev-2: cilium : Install Cilium with Helm: helm upgrade failed: timed out',
        '3-cilium-rollout skipped: not run',
        '4-verify skipped: not run',
      ]),
    );
  });

  it('the preflight runs again on the new commit when the approval is asked again, and refuses a bad render there', async () => {
    let commit = 'a'.repeat(40);
    const t = setup({ commit: () => commit });
    await t.run();
    t.approvals.approve('2-cilium');
    // The repo moves to a commit that empties k8sServiceHost: the incident's render.
    commit = 'b'.repeat(40);
    t.files['platform/cilium/helmrelease.yaml'] = CILIUM_FILES['platform/cilium/helmrelease.yaml']!.replace(
      FLUX_API_HOST,
      '""',
    );
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(1);
    expect(t.reporter.planFailure()).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('k8sServiceHost'),
    });
    expect(t.playbookRuns()).toBe(0);
  });

  it('plan cilium dev checks every step read-only and lists every refusal: the preflight and a dirty checkout', async () => {
    const helmrelease = CILIUM_FILES['platform/cilium/helmrelease.yaml']!.replace(
      FLUX_API_HOST,
      '"REPLACE-ME"',
    );
    const t = setup({
      files: { 'platform/cilium/helmrelease.yaml': helmrelease },
      dirty: [' M platform/cilium/helmrelease.yaml'],
    });
    const result = await t.run({ verb: 'plan', cluster: 'dev', of: { verb: 'cilium', cluster: 'dev' } });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.reporter.planFailure()?.details?.failures).toEqual([
      expect.stringMatching(
        /^1\. Cilium preflight: Cilium preflight failed: k8sServiceHost is still "REPLACE-ME"/,
      ),
      expect.stringMatching(
        /^2\. cilium\.yml: the infra checkout on the ops host has uncommitted changes \(platform\/cilium\/helmrelease\.yaml\)/,
      ),
    ]);
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.playbookRuns()).toBe(0);
  });

  it('the preflight refuses a REPLACE-ME k8sServiceHost before asking anyone', async () => {
    const helmrelease = CILIUM_FILES['platform/cilium/helmrelease.yaml']!.replace(
      FLUX_API_HOST,
      '"REPLACE-ME"',
    );
    const t = setup({ files: { 'platform/cilium/helmrelease.yaml': helmrelease } });
    const result = await t.run();
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.reporter.texts()).toContain(
      '1-cilium-preflight ✗ k8sServiceHost is still "REPLACE-ME" in platform/cilium/helmrelease.yaml',
    );
  });

  it('files that mark no parity field are held together by the documented contract, and say so', async () => {
    const unmarked = (path: string) => CILIUM_FILES[path]!.replaceAll('[parity]', '');
    const files = Object.fromEntries(Object.keys(CILIUM_FILES).map((path) => [path, unmarked(path)]));
    const t = setup({ files });
    expect(await t.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(t.reporter.texts()).toContainEqual(
      expect.stringMatching(
        /^1-cilium-preflight succeeded: k8sServiceHost renders 127\.0\.1\.11 \(infra\/ansible\/group_vars\/all\.yml\), the same in Flux's substitution; 4 parity fields agree across the three files \(from the runbook's documented contract .* as no file marks a field # \[parity\]\)/,
      ),
    );

    const drifted = setup({
      files: {
        ...files,
        'platform/cilium/values.yaml': unmarked('platform/cilium/values.yaml').replace(
          'k8sServicePort: 6443',
          'k8sServicePort: 443',
        ),
      },
    });
    expect(await drifted.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(drifted.reporter.texts().join('\n')).toContain('parity field k8sServicePort differs');
  });

  it('the preflight refuses a HelmRelease chart version other than the role defaults’ cilium_version', async () => {
    const helmrelease = CILIUM_FILES['platform/cilium/helmrelease.yaml']!.replace(
      'version: 1.20.1',
      'version: 1.20.2',
    );
    const t = setup({ files: { 'platform/cilium/helmrelease.yaml': helmrelease } });
    expect(await t.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(t.approvals.requests).toHaveLength(0);
    expect(t.reporter.texts()).toContain(
      '1-cilium-preflight ✗ Cilium chart versions differ: cilium_version 1.20.1 in ' +
        'infra/ansible/roles/cilium/defaults/main.yml, chart.spec.version 1.20.2 in platform/cilium/helmrelease.yaml',
    );
  });

  it('the preflight refuses a live DaemonSet at maxUnavailable 2 and a parity drift', async () => {
    const values = CILIUM_FILES['platform/cilium/values.yaml']!.replace(
      'k8sServicePort: 6443',
      'k8sServicePort: 443',
    );
    const t = setup({ files: { 'platform/cilium/values.yaml': values } });
    t.kube.patchDaemonSet('kube-system/cilium', { maxUnavailable: 2 });
    expect(await t.run()).toMatchObject({ outcome: 'failed' });
    const texts = t.reporter.texts().join('\n');
    expect(texts).toContain('parity field k8sServicePort differs');
    expect(texts).toContain('the live DaemonSet kube-system/cilium has maxUnavailable 2');
  });

  it('cancelling mid-run ends the job as cancelled', async () => {
    const t = setup();
    await t.run();
    t.approvals.approve('2-cilium');
    const controller = new AbortController();
    t.shell.exec = async () => {
      controller.abort();
      throw new ClusterBotError('CANCELLED', 'cancelled');
    };
    expect(await t.run(undefined, controller.signal)).toMatchObject({
      status: 'finished',
      outcome: 'cancelled',
    });
  });
});
