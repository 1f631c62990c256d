import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { loadJobFacts } from '../../src/lifecycle/engine/job-facts.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { acceptHostKeyStep } from '../../src/lifecycle/rebuild/accept-host-key-step.js';
import { waitForSshStep } from '../../src/lifecycle/rebuild/wait-for-ssh-step.js';
import { presentedHostKeyFactKey } from '../../src/lifecycle/targets.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createMemoryHostKeyPins } from '../support/memory-host-key-pins.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createMemoryKubeconfigs } from '../support/memory-kubeconfigs.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const NEW_KEY = {
  fingerprint: 'SHA256:bmV3LWhvc3Qta2V5',
  keyType: 'ssh-ed25519',
  publicKey: 'AAAAC3NzaC1lZDI1NTE5AAAAIG5ldy1ob3N0LWtleQ',
};
const NODE = 'k3s-dev-3';
const ADDRESS = '192.168.1.43';

function setUp(
  steps: Step[],
  answer: (call: ShellCall) => ScriptedReply | undefined,
  pins = createMemoryHostKeyPins(),
) {
  const plan: Plan = { command: { verb: 'verify', cluster: 'dev' }, cluster: 'dev', steps };
  const shell = createScriptedShell(answer, NEW_KEY);
  const approvals = createMemoryApprovalDesk();
  const reporter = createRecordingReporter();
  const checkpoints = createMemoryCheckpointStore();
  const run = () =>
    runPlan(plan, {
      jobId: 'j',
      world,
      shell,
      kube: createMemoryKube().kube,
      kubeconfigs: createMemoryKubeconfigs().keeper,
      hostKeyPins: pins.pins,
      clock: createInstantClock(),
      checkpoints,
      approvals: approvals.desk,
      reporter,
      signal: new AbortController().signal,
    });
  return { shell, approvals, reporter, checkpoints, pins, run };
}

const opsAnswersWith = (fingerprint: string) => (call: ShellCall) =>
  call.target === 'ops'
    ? {
        stdout: [
          '/home/ops/.ssh/known_hosts',
          `# Host ${ADDRESS} found: line 3`,
          `${ADDRESS} ED25519 ${fingerprint}`,
        ],
      }
    : undefined;

describe('a rebuilt node: its new host key is accepted by a person before anything runs on it', () => {
  const rebuiltSteps = () => [
    waitForSshStep('1-wait-ssh', NODE, { rebuilt: true }),
    acceptHostKeyStep('2-accept-host-key', NODE),
  ];

  it('probes only, asks with the fingerprint, and after the click pins it, runs the first command and updates the ops known_hosts', async () => {
    const lab = setUp(rebuiltSteps(), opsAnswersWith(NEW_KEY.fingerprint));

    expect(await lab.run()).toMatchObject({ status: 'waiting', stepId: '2-accept-host-key' });
    expect(lab.shell.probes).toEqual([`${ADDRESS}:22`]);
    expect(lab.shell.calls).toEqual([]);
    const [request] = lab.approvals.requests;
    expect(request?.binding.commandLine).toBe(
      `accept ${NEW_KEY.fingerprint} (ssh-ed25519) as the host key of ${NODE}`,
    );
    expect(request?.reason).toMatch(/nothing runs on the node until then/);
    // Decided only where the request is read whole: the App Home offers a link, no button.
    expect(request?.compare).toBe('a host key to compare');

    lab.approvals.approve('2-accept-host-key');
    expect(await lab.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    const [first, opsEdit] = lab.shell.calls;
    expect(first).toMatchObject({
      target: NODE,
      argv: ['true'],
      hostKey: { fingerprint: NEW_KEY.fingerprint },
    });
    expect(opsEdit?.target).toBe('ops');
    expect(opsEdit?.argv.slice(0, 2)).toEqual(['sh', '-c']);
    // The ops user's ~/.ssh/known_hosts (no path configured), the host name, the new line: each its own argument.
    expect(opsEdit?.argv.slice(3)).toEqual([
      'cluster-bot-known-hosts',
      '',
      ADDRESS,
      `${ADDRESS} ssh-ed25519 ${NEW_KEY.publicKey}`,
    ]);
    expect(lab.reporter.texts()).toContain(
      `2-accept-host-key succeeded: host key ${NEW_KEY.fingerprint} accepted for ${NODE}: kept as the bot's pin until the mounted known_hosts holds it, written to /home/ops/.ssh/known_hosts on the ops host`,
    );
    // Kept for later jobs, with the job and the approver who compared it.
    expect(lab.pins.kept('dev')).toEqual({
      [NODE]: { ...NEW_KEY, jobId: 'j', approvedBy: ['U0BOB'], at: expect.any(Number) },
    });
  });

  it("a later job reaches the node through known_hosts with the bot's kept pin standing in for the old key", async () => {
    const first = setUp(rebuiltSteps(), opsAnswersWith(NEW_KEY.fingerprint));
    await first.run();
    first.approvals.approve('2-accept-host-key');
    await first.run();

    const later = setUp(
      [waitForSshStep('1-wait-ssh', NODE, { rebuilt: false })],
      () => undefined,
      first.pins,
    );
    expect(await later.run()).toMatchObject({ outcome: 'succeeded' });
    expect(later.shell.calls).toEqual([
      expect.objectContaining({
        target: NODE,
        hostKey: {
          knownHostsPath: world.clusters.dev!.nodeSsh.knownHostsPath,
          keptFingerprint: NEW_KEY.fingerprint,
        },
      }),
    ]);
  });

  it('recomputes what it pins right before pinning: a key that changed since the click voids the approval and asks again', async () => {
    const lab = setUp(rebuiltSteps(), opsAnswersWith(NEW_KEY.fingerprint));
    await lab.run();
    lab.approvals.approve('2-accept-host-key');
    // The job now holds another key for the node than the one the approver compared with the console.
    const other = {
      ...NEW_KEY,
      fingerprint: 'SHA256:b3RoZXIta2V5',
      publicKey: 'AAAAC3NzaC1lZDI1NTE5AAAAIG90aGVyLWtleQ',
    };
    await (await loadJobFacts(lab.checkpoints)).set(presentedHostKeyFactKey(NODE), other);

    expect(await lab.run()).toMatchObject({ status: 'waiting', stepId: '2-accept-host-key' });
    expect(lab.shell.calls).toEqual([]);
    expect(lab.approvals.voided).toHaveLength(1);
    expect(lab.approvals.requests.map((request) => request.binding.commandLine)).toEqual([
      `accept ${NEW_KEY.fingerprint} (ssh-ed25519) as the host key of ${NODE}`,
      `accept ${other.fingerprint} (ssh-ed25519) as the host key of ${NODE}`,
    ]);
    expect(lab.approvals.requests[1]?.warning).toMatch(/^The approved run is not what would run now: /);
  });

  it('a rejection ends the job with nothing run on the node', async () => {
    const lab = setUp(rebuiltSteps(), opsAnswersWith(NEW_KEY.fingerprint));
    await lab.run();
    lab.approvals.reject('2-accept-host-key');
    expect(await lab.run()).toMatchObject({ status: 'finished', outcome: 'rejected' });
    expect(lab.shell.calls).toEqual([]);
  });

  it('fails the step when the ops known_hosts does not end up holding exactly the accepted key', async () => {
    const lab = setUp(rebuiltSteps(), opsAnswersWith('SHA256:c29tZS1vdGhlci1rZXk'));
    await lab.run();
    lab.approvals.approve('2-accept-host-key');
    expect(await lab.run()).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(lab.reporter.planFailure()).toMatchObject({
      code: 'COMMAND_FAILED',
      message: expect.stringContaining(`instead of ${NEW_KEY.fingerprint}`),
    });
  });
});

describe('a node that was not rebuilt: the pinned key must match, no first-use trust', () => {
  it('connects through known_hosts and never probes', async () => {
    const lab = setUp([waitForSshStep('1-wait-ssh', NODE, { rebuilt: false })], () => undefined);
    expect(await lab.run()).toMatchObject({ outcome: 'succeeded' });
    expect(lab.shell.probes).toEqual([]);
    expect(lab.shell.calls).toEqual([
      expect.objectContaining({
        target: NODE,
        hostKey: { knownHostsPath: world.clusters.dev!.nodeSsh.knownHostsPath },
      }),
    ]);
  });

  it.each(['SSH_HOST_KEY_MISMATCH', 'SSH_HOST_KEY_UNKNOWN'] as const)(
    'fails at once on %s, without waiting or retrying',
    async (code) => {
      const lab = setUp([waitForSshStep('1-wait-ssh', NODE, { rebuilt: false })], () => ({
        error: new ClusterBotError(code, 'host key refused'),
      }));
      expect(await lab.run()).toMatchObject({ outcome: 'failed' });
      expect(lab.reporter.planFailure()).toMatchObject({ code });
      expect(lab.shell.calls).toHaveLength(1);
      expect(lab.shell.probes).toEqual([]);
    },
  );
});
