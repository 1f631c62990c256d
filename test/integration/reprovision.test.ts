import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { bareMetal } from '../support/bare-metal-world.js';
import { DEV_ADDRESSES, LAB_TEST_TIMEOUT_MS, TOFU_RESOURCE } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const node = (name: string) => lab.sim.state().nodes.find((candidate) => candidate.metadata.name === name);
const isReady = (name: string) =>
  node(name)?.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') === true;

describe('reprovision k3s-dev-3 against the lab', () => {
  it(
    'is refused before any approval while another server is NotReady (etcd quorum)',
    async () => {
      lab.sim.setNodeReady('k3s-dev-2', false);
      try {
        await waitFor('k3s-dev-2 NotReady', async () => (isReady('k3s-dev-2') ? undefined : true));
        const job = lab.startJob('reprovision k3s-dev-3');

        const result = await job.runUntilDone({ approve: true });

        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        const failure = job.reporter.planFailure();
        expect(failure).toMatchObject({
          code: 'PRECONDITION_FAILED',
          details: {
            failures: ['k3s-dev-2 is NotReady: taking k3s-dev-3 away as well would lose etcd quorum'],
          },
        });
        expect(job.approvals.requests).toEqual([]);
        expect(job.texts()).toContain('2-cordon-drain skipped: not run');
        expect(node('k3s-dev-3')?.spec.unschedulable).toBeFalsy();
        expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-3'])).toBeUndefined();
      } finally {
        lab.sim.setNodeReady('k3s-dev-2', true);
      }
      await waitFor('k3s-dev-2 Ready again', async () => (isReady('k3s-dev-2') ? true : undefined));
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a failed etcd snapshot stops the job before the node is taken away',
    async () => {
      await lab.nodes.setNodeState('etcd-snapshot-fail', 'etcdserver: request timed out');
      try {
        const job = lab.startJob('reprovision k3s-dev-2');

        const result = await job.runUntilDone({ approve: true });

        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        expect(job.reporter.failedStep()?.stepId).toBe('3-etcd-snapshot');
        expect(job.reporter.planFailure()?.message).toMatch(
          /^etcd snapshot on k3s-dev-1 failed \(.*etcdserver: request timed out.*\): k3s-dev-2 was not taken away$/,
        );
        expect(job.texts()).toContain('4-remove-node skipped: not run');
        expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-2'])).toBeUndefined();
        expect(node('k3s-dev-2')).toBeDefined();
      } finally {
        await lab.nodes.setNodeState('etcd-snapshot-fail', null);
        await lab.devKube.setUnschedulable('k3s-dev-2', false);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'quorum is checked again right before k3s is stopped: a server lost after the approval stops the job',
    async () => {
      const job = lab.startJob('reprovision k3s-dev-2');
      try {
        const result = await job.runUntilDone({
          approve: true,
          onWaiting: async (stepId) => {
            if (stepId !== '2-cordon-drain') return;
            lab.sim.setNodeReady('k3s-dev-3', false);
            await waitFor('k3s-dev-3 NotReady', async () => (isReady('k3s-dev-3') ? undefined : true));
          },
        });

        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        expect(job.reporter.failedStep()?.stepId).toBe('4-remove-node');
        expect(job.reporter.planFailure()?.message).toBe(
          'k3s-dev-2 was not taken away: k3s-dev-3 is NotReady: taking k3s-dev-2 away as well would lose etcd quorum',
        );
        expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-2'])).toBeUndefined();
        expect(node('k3s-dev-2')).toBeDefined();
      } finally {
        lab.sim.setNodeReady('k3s-dev-3', true);
        await lab.devKube.setUnschedulable('k3s-dev-2', false);
      }
      await waitFor('k3s-dev-3 Ready again', async () => (isReady('k3s-dev-3') ? true : undefined));
    },
    LAB_TEST_TIMEOUT_MS,
  );
  it(
    'drains, removes, rebuilds from the approved tofu plan, has a person accept the new host key, re-joins and verifies the node',
    async () => {
      const before = lab.sim.state();
      const oldNodeUid = node('k3s-dev-3')!.metadata.uid;
      const drained = before.pods
        .filter(
          (pod) =>
            pod.spec.nodeName === 'k3s-dev-3' && pod.metadata.ownerReferences?.[0]?.kind !== 'DaemonSet',
        )
        .map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`);
      expect(drained.length).toBeGreaterThan(0);
      const knownHostsBefore = await readFile(lab.nodes.knownHostsPath, 'utf8');
      // The ops host knows the node's old key (and another host, which must stay).
      const oldLine = knownHostsBefore
        .split('\n')
        .find((line) => line.startsWith(`[${DEV_ADDRESSES['k3s-dev-3']}]:`))!;
      const otherLine = knownHostsBefore
        .split('\n')
        .find((line) => line.startsWith(`[${DEV_ADDRESSES['k3s-dev-2']}]:`))!;
      await writeFile(lab.opsKnownHostsPath, `${otherLine}\n${oldLine}\n`);
      const commit = await lab.repo.head();
      const job = lab.startJob('reprovision k3s-dev-3');
      let newFingerprint = '';
      let nodeCommandsAtRebuild = -1;
      let nodeCommandsAtAcceptance = -1;
      // The bot's connections to the node: those its runs opened under the old key.
      const toRebuilt = async () =>
        (await lab.nodes.botConnections())
          .filter((each) => each.address === DEV_ADDRESSES['k3s-dev-3'])
          .map((each) => each.clientPort);
      let beforeRebuild: number[] = [];

      const result = await job.runUntilDone({
        approve: true,
        onWaiting: async (stepId) => {
          // The VM is re-created while the rebuild is approved: the node comes back with a new host key.
          if (stepId === '5-rebuild') {
            beforeRebuild = await toRebuilt();
            newFingerprint = await lab.nodes.rotateHostKey(DEV_ADDRESSES['k3s-dev-3']);
            nodeCommandsAtRebuild = (await lab.nodes.commands()).length;
          }
          if (stepId === '7-accept-host-key') nodeCommandsAtAcceptance = (await lab.nodes.commands()).length;
        },
      });

      expect(result).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 15 steps done',
      });
      const texts = job.texts();
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual([
        '2-cordon-drain',
        '5-rebuild',
        '7-accept-host-key',
      ]);
      // The old key's connections ended with their runs; after the acceptance, one new connection
      // (its run's only one to the node) verified the accepted key, and none is left open.
      expect(beforeRebuild.length).toBeGreaterThan(0);
      expect((await toRebuilt()).filter((port) => !beforeRebuild.includes(port))).toHaveLength(1);
      const open = await lab.nodes.openConnections();
      expect((await toRebuilt()).filter((port) => open.includes(port))).toEqual([]);

      // cordon + drain: every pod but the DaemonSet's was evicted, then the node stayed cordoned until the end.
      expect(texts).toContain('2-cordon-drain k3s-dev-3 cordoned');
      expect(texts.filter((text) => text.startsWith('2-cordon-drain evicted ')).sort()).toEqual(
        drained.map((pod) => `2-cordon-drain evicted ${pod}`).sort(),
      );
      expect(lab.sim.requests).toContainEqual(
        expect.objectContaining({ method: 'POST', path: expect.stringMatching(/\/pods\/[^/]+\/eviction$/) }),
      );

      // An etcd snapshot was taken on a surviving server, never on the node about to be wiped.
      expect(await lab.nodes.readNodeState('k3s-calls', DEV_ADDRESSES['k3s-dev-1'])).toMatch(
        new RegExp(`etcd-snapshot save --name cluster-bot-${job.jobId}\n$`),
      );
      expect(await lab.nodes.readNodeState('k3s-calls', DEV_ADDRESSES['k3s-dev-3'])).toBeUndefined();
      expect(texts).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^3-etcd-snapshot etcd snapshot cluster-bot-${job.jobId}-k3s-dev-1-\\d+ saved on k3s-dev-1 \\(/var/lib/rancher/k3s/server/db/snapshots/\\)$`,
          ),
        ),
      );

      // k3s stopped on the node itself, its Node deleted, then re-joined by k3s.yml.
      expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-3'])).toBe(
        'k3s.service\n',
      );
      expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-2'])).toBeUndefined();
      const paths = lab.sim.requests.map((request) => `${request.method} ${request.path}`);
      const deletedAt = paths.lastIndexOf('DELETE /api/v1/nodes/k3s-dev-3');
      const joinedAt = paths.lastIndexOf('POST /_sim/nodes/k3s-dev-3/join');
      expect(deletedAt).toBeGreaterThan(-1);
      expect(joinedAt).toBeGreaterThan(deletedAt);
      expect(node('k3s-dev-3')?.metadata.uid).not.toBe(oldNodeUid);

      // tofu: a plan saved for this job, its summary and addresses in the approval, then exactly that plan applied.
      const planFile = `.terraform/cluster-bot-${job.jobFolder}.tfplan`;
      const rebuild = job.approvals.requests[1]!.binding;
      expect(rebuild.commit).toBe(commit);
      expect(rebuild.commandLine).toBe(
        `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.root}/infra/tofu && tofu apply -input=false -no-color ${planFile}`,
      );
      expect(rebuild.preview).toEqual({
        ran: true,
        changedTasks: { [TOFU_RESOURCE('k3s-dev-3')]: ['delete', 'create'] },
        diffExcerpt: [
          `# ${TOFU_RESOURCE('k3s-dev-3')} will be replaced, as requested`,
          'Plan: 1 to add, 0 to change, 1 to destroy.',
        ].join('\n'),
      });
      expect(await lab.ops.readNodeState('tofu-calls', '127.0.0.1')).toBe(
        [
          `plan -replace=${TOFU_RESOURCE('k3s-dev-3')} -out=${planFile} -input=false -no-color`,
          `show -json ${planFile}`, // for the approval
          `show -json ${planFile}`, // the run-time check of what was approved
          `show -json ${planFile}`, // the step's own check before applying
          `apply -input=false -no-color ${planFile}`,
          '',
        ].join('\n'),
      );
      await expect(readFile(`${lab.repo.root}/infra/tofu/${planFile}`)).rejects.toMatchObject({
        code: 'ENOENT',
      });

      // The new key is shown, and nothing ran on any node from the rebuild until a person accepted it.
      expect(newFingerprint).toMatch(/^SHA256:/);
      expect(texts).toContain(
        `6-wait-ssh succeeded: k3s-dev-3 is up with host key ${newFingerprint}; nothing runs on it until a person accepts that key`,
      );
      const acceptance = job.approvals.requests[2]!;
      expect(acceptance.binding.commandLine).toBe(
        `accept ${newFingerprint} (ssh-ed25519) as the host key of k3s-dev-3`,
      );
      expect(nodeCommandsAtAcceptance).toBe(nodeCommandsAtRebuild);
      expect((await lab.nodes.commands())[nodeCommandsAtAcceptance]).toBe('true');

      // Kept as the bot's pin; the mounted known_hosts is untouched and, on its own, still refuses the new key.
      expect(texts).toContain(
        `7-accept-host-key succeeded: host key ${newFingerprint} accepted for k3s-dev-3: kept as the bot's pin until the mounted known_hosts holds it, written to ${lab.opsKnownHostsPath} on the ops host`,
      );
      expect(await readFile(lab.nodes.knownHostsPath, 'utf8')).toBe(knownHostsBefore);
      const outsideTheJob = createSshRemoteShell({ connectTimeoutMs: 3_000 }).exec(
        {
          label: 'k3s-dev-3',
          host: DEV_ADDRESSES['k3s-dev-3'],
          port: lab.nodes.port,
          user: lab.nodes.user,
          privateKeyPath: lab.nodes.clientKeyPath,
          hostKey: { knownHostsPath: lab.nodes.knownHostsPath },
        },
        { argv: ['true'], timeoutMs: 5_000 },
      );
      await expect(outsideTheJob).rejects.toMatchObject({
        code: 'SSH_HOST_KEY_MISMATCH',
        message: expect.stringContaining(newFingerprint),
      });

      // The ops host's known_hosts (what the playbooks' own SSH reads): the old key replaced, the rest kept.
      const [keyType, blob] = (await readFile(`${lab.nodes.dir}/host_key.pub`, 'utf8')).trim().split(/\s+/);
      expect(await readFile(lab.opsKnownHostsPath, 'utf8')).toBe(
        `${otherLine}\n[${DEV_ADDRESSES['k3s-dev-3']}]:${lab.nodes.port} ${keyType} ${blob}\n`,
      );

      // The node-host layers re-run on that node only; the VPN gateway checks pass through the pinned key.
      expect(await lab.playbookRuns()).toEqual([
        'ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml --limit k3s-dev-3',
        'ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-3',
        'ansible-playbook -i inventory/hosts.ini playbooks/kube-vip.yml --limit k3s-dev-3',
        'ansible-playbook -i inventory/hosts.ini playbooks/vpn.egress.gateway.yml --limit k3s-dev-3',
      ]);
      expect(texts).toContain(
        '12-vpn-check succeeded: vpn-egress-tunnel.service active; tun0 exits from 203.0.113.7, not the home ISP (198.51.100.20)',
      );
      expect(texts).toContainEqual(
        expect.stringMatching(
          /^13-node-ready succeeded: k3s-dev-3 Ready, agent cilium-\w+ Ready, every server Ready with the etcd role$/,
        ),
      );
      expect(texts).toContain('14-uncordon succeeded: k3s-dev-3 schedulable again');
      expect(node('k3s-dev-3')?.spec.unschedulable).toBeFalsy();
      expect(isReady('k3s-dev-3')).toBe(true);
      expect(texts).toContain(
        '15-verify succeeded: 3/3 nodes Ready, 3/3 updated, 3/3 available, hubble-relay 1/1 available, ' +
          'kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on k3s-dev-1, k3s-dev-2, ' +
          "k3s-dev-3 (their Nodes' k3s.io/node-args), Cilium kube-proxy-replacement true, maxUnavailable 1",
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a tofu plan that touches more than the node, before any approval and with nothing applied',
    async () => {
      const neighbour = TOFU_RESOURCE('k3s-dev-2');
      // The rebuild above gave the nodes a new key; the operators checked it and updated known_hosts.
      await trustCurrentNodeKey();
      await lab.ops.setNodeState('tofu-calls', null, '127.0.0.1');
      await lab.ops.setNodeState('tofu-plan-extra', neighbour, '127.0.0.1');
      try {
        const job = lab.startJob('reprovision k3s-dev-3');
        const result = await job.runUntilDone({ approve: true });

        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        expect(job.reporter.failedStep()?.stepId).toBe('5-rebuild');
        expect(job.reporter.planFailure()).toMatchObject({
          code: 'PRECONDITION_FAILED',
          message: expect.stringContaining(`touches ${neighbour} (update)`),
        });
        // Only the drain was approved: the rebuild's approval was never asked for, nothing was applied.
        expect(job.approvals.requests.map((request) => request.stepId)).toEqual(['2-cordon-drain']);
        const calls = (await lab.ops.readNodeState('tofu-calls', '127.0.0.1'))?.split('\n') ?? [];
        expect(calls.some((call) => call.startsWith('plan '))).toBe(true);
        expect(calls.some((call) => call.startsWith('apply'))).toBe(false);
      } finally {
        await lab.ops.setNodeState('tofu-plan-extra', null, '127.0.0.1');
      }
      // The drain and the Node's deletion did happen: re-join k3s-dev-3 as k3s.yml would.
      lab.sim.joinNode('k3s-dev-3');
      await waitFor('k3s-dev-3 Ready again', async () => (isReady('k3s-dev-3') ? true : undefined));
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a saved plan changed after its approval is refused right before applying, and nothing is applied',
    async () => {
      await lab.ops.setNodeState('tofu-calls', null, '127.0.0.1');
      const job = lab.startJob('reprovision k3s-dev-3');
      const planFile = `${lab.repo.root}/infra/tofu/.terraform/cluster-bot-${job.jobFolder}.tfplan`;
      const result = await job.runUntilDone({
        approve: true,
        onWaiting: async (stepId) => {
          if (stepId !== '5-rebuild') return;
          // Someone re-plans into the same file while the approval is open: now it also destroys a neighbour.
          const saved = JSON.parse(await readFile(planFile, 'utf8'));
          saved.resource_changes.push({
            address: TOFU_RESOURCE('k3s-dev-2'),
            change: { actions: ['delete'] },
          });
          await writeFile(planFile, JSON.stringify(saved));
        },
      });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.failedStep()?.stepId).toBe('5-rebuild');
      expect(job.reporter.planFailure()).toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: expect.stringContaining(`touches ${TOFU_RESOURCE('k3s-dev-2')} (delete)`),
      });
      const calls = (await lab.ops.readNodeState('tofu-calls', '127.0.0.1'))?.split('\n') ?? [];
      expect(calls.some((call) => call.startsWith('apply'))).toBe(false);
      lab.sim.joinNode('k3s-dev-3');
      await waitFor('k3s-dev-3 Ready again', async () => (isReady('k3s-dev-3') ? true : undefined));
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'bare metal (no tofuResource): parks after the removal for the reinstall by hand, resumes on the click, then the new host key is accepted and kept',
    async () => {
      const world = bareMetal(lab.world, 'k3s-dev-3');
      const job = lab.startJob('reprovision k3s-dev-3', { world });
      let nodeCommandsAtClick = -1;
      let newFingerprint = '';

      const result = await job.runUntilDone({
        approve: true,
        onWaiting: async (stepId) => {
          if (stepId !== '5-reinstalled') return;
          // Parked with the node already out of the cluster: drained, k3s stopped, its Node deleted.
          expect(node('k3s-dev-3')).toBeUndefined();
          expect(job.texts()).toContainEqual(
            expect.stringMatching(/^4-remove-node succeeded: k3s stopped; Node k3s-dev-3 deleted/),
          );
          // The operator reinstalls the OS: the node comes back with a new host key.
          newFingerprint = await lab.nodes.rotateHostKey(DEV_ADDRESSES['k3s-dev-3']);
          nodeCommandsAtClick = (await lab.nodes.commands()).length;
        },
      });

      expect(job.reporter.planFailure()).toBeUndefined();
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual([
        '2-cordon-drain',
        '5-reinstalled',
        '7-accept-host-key',
        '8-k3s-uninstall',
      ]);
      const reinstall = job.approvals.requests[1]!;
      expect(reinstall.reason).toBe(
        `reinstall the OS on k3s-dev-3 now, by hand, as the runbook's "Re-provisioning a node (fresh OS)" says: ` +
          `a fresh OS with the bot's SSH key for ${lab.nodes.user}, on the same address. Then approve: the click says ` +
          'k3s-dev-3 is reinstalled. The job waits here holding no worker; next it probes k3s-dev-3 and shows ' +
          'its new host key for a person to accept',
      );
      expect(reinstall.binding.commandLine).toBe('reinstall the OS on k3s-dev-3 by hand, then confirm');
      const texts = job.texts();
      expect(texts).toContain('5-reinstalled succeeded: k3s-dev-3 reinstalled by hand, confirmed by U0BOB');
      expect(texts).toContain(
        `6-wait-ssh succeeded: k3s-dev-3 is up with host key ${newFingerprint}; nothing runs on it until a person accepts that key`,
      );
      // Only probed until the key was accepted: the first command on the node came after that click.
      expect(job.approvals.requests[2]!.binding.commandLine).toBe(
        `accept ${newFingerprint} (ssh-ed25519) as the host key of k3s-dev-3`,
      );
      expect((await lab.nodes.commands())[nodeCommandsAtClick]).toBe('true');
      expect(lab.hostKeyPins.kept('dev')['k3s-dev-3']).toMatchObject({
        fingerprint: newFingerprint,
        jobId: job.jobId,
        approvedBy: ['U0BOB'],
      });
      // Then the re-join, through the accepted key.
      const uninstalled = texts.indexOf(
        '8-k3s-uninstall succeeded: k3s and its etcd data removed from k3s-dev-3',
      );
      const k3sStarted = job.reporter.events.findIndex(
        (event) => event.type === 'step-started' && event.stepId === '10-k3s',
      );
      expect(uninstalled).toBeGreaterThan(-1);
      expect(k3sStarted).toBeGreaterThan(uninstalled);
      expect(isReady('k3s-dev-3')).toBe(true);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    "a later job reaches the rebuilt node through the bot's kept pin while the mounted known_hosts holds its old key",
    async () => {
      // The mounted known_hosts still has the key k3s-dev-3 had before the rebuild above.
      expect(await readFile(lab.nodes.knownHostsPath, 'utf8')).not.toContain(
        await lab.nodes.knownHostsLine(DEV_ADDRESSES['k3s-dev-3']),
      );
      const job = lab.startJob('reprovision k3s-dev-3');
      try {
        expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cordon-drain' });
        job.approvals.approve('2-cordon-drain');
        expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '5-rebuild' });
        // systemctl stop k3s ran on the node itself, over SSH through the kept pin.
        expect(job.texts()).toContain('4-remove-node k3s stopped');
      } finally {
        lab.sim.joinNode('k3s-dev-3');
        await waitFor('k3s-dev-3 Ready again', async () => (isReady('k3s-dev-3') ? true : undefined));
        await lab.devKube.setUnschedulable('k3s-dev-3', false);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a worker killed mid tofu apply: the resumed job follows the apply still running and never applies twice',
    async () => {
      const ops = '127.0.0.1';
      await lab.ops.setNodeState('tofu-calls', null, ops);
      await lab.ops.setNodeState('tofu-apply-hold', '1', ops);
      const job = lab.startJob('reprovision k3s-dev-3');
      try {
        let result = await job.run();
        while (result.status === 'waiting' && result.stepId !== '5-rebuild') {
          job.approvals.approve(result.stepId);
          result = await job.run();
        }
        expect(result).toMatchObject({ status: 'waiting', stepId: '5-rebuild' });
        job.approvals.approve('5-rebuild');
        const running = job.run();
        await waitFor(
          'tofu apply to be destroying the VM',
          () => job.reporter.linesOf('5-rebuild').includes('proxmox_vm_qemu: Destroying...'),
          { timeoutMs: 30_000 },
        );
        // The worker is SIGKILLed: its writes, its following and its connection are gone; the apply is not.
        job.checkpoints.crash();
        await lab.ops.killSessions();
        await running;

        job.checkpoints.revive();
        const resumed = job.run();
        const note = await waitFor('the re-attach', () =>
          job.texts().find((text) => text.includes('worker restarted; following the running `tofu apply`')),
        );
        await lab.ops.setNodeState('tofu-apply-hold', null, ops);
        expect(await resumed).toMatchObject({ status: 'waiting', stepId: '7-accept-host-key' });

        expect(note).toMatch(/from line \d+$/);
        expect(job.approvals.voided).toEqual([]);
        expect(job.checkpoints.records.get('5-rebuild')?.status).toBe('succeeded');
        const calls = (await lab.ops.readNodeState('tofu-calls', ops))?.split('\n') ?? [];
        expect(calls.filter((call) => call.startsWith('apply'))).toHaveLength(1);
        const lines = job.reporter.linesOf('5-rebuild');
        expect(lines.filter((line) => line.startsWith('Apply complete!'))).toHaveLength(1);
        expect(lines.filter((line) => line === 'proxmox_vm_qemu: Destroying...')).toHaveLength(1);
      } finally {
        await lab.ops.setNodeState('tofu-apply-hold', null, ops);
        lab.sim.joinNode('k3s-dev-3');
        await waitFor('k3s-dev-3 Ready again', async () => (isReady('k3s-dev-3') ? true : undefined));
        await lab.devKube.setUnschedulable('k3s-dev-3', false);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );
});

/**
 * Writes each node's current host key into the bot's known_hosts, as operators do after checking it;
 * `except` gets another key (an old one), as for a node reinstalled by hand.
 */
async function trustCurrentNodeKey(options: { except?: string } = {}): Promise<void> {
  const other = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9sZC1rZXktb2YtYS1ub2RlLXJlaW5zdGFsbGVkLWJ5LWg';
  const lines = await Promise.all(
    lab.nodes.addresses.map(async (address) =>
      address === options.except
        ? `[${address}]:${lab.nodes.port} ${other}\n`
        : `${await lab.nodes.knownHostsLine(address)}\n`,
    ),
  );
  await writeFile(lab.nodes.knownHostsPath, lines.join(''));
}
