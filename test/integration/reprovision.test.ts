import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { waitFor } from '../ssh/wait-for.js';
import {
  DEV_ADDRESSES,
  LAB_TEST_TIMEOUT_MS,
  type LifecycleLab,
  startLifecycleLab,
  TOFU_RESOURCE,
} from './start-lifecycle-lab.js';

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
    'drains, removes, rebuilds with tofu -replace, pins the new host key, re-joins and verifies the node',
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
      const commit = await lab.repo.head();
      const job = lab.startJob('reprovision k3s-dev-3');
      let newFingerprint = '';

      const result = await job.runUntilDone({
        approve: true,
        // The VM is re-created while the rebuild is approved: the node comes back with a new host key.
        onWaiting: async (stepId) => {
          if (stepId === '5-rebuild') newFingerprint = await lab.nodes.rotateHostKey();
        },
      });

      expect(result).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 14 steps done',
      });
      const texts = job.texts();
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual([
        '2-cordon-drain',
        '5-rebuild',
      ]);

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
        /etcd-snapshot save --name cluster-bot-job-reprovision\n$/,
      );
      expect(await lab.nodes.readNodeState('k3s-calls', DEV_ADDRESSES['k3s-dev-3'])).toBeUndefined();
      expect(texts).toContainEqual(
        expect.stringMatching(
          /^3-etcd-snapshot etcd snapshot cluster-bot-job-reprovision-k3s-dev-1-\d+ saved on k3s-dev-1 \(\/var\/lib\/rancher\/k3s\/server\/db\/snapshots\/\)$/,
        ),
      );

      // k3s stopped on the node itself, its Node deleted, then re-joined by k3s.yml.
      expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-3'])).toBe(
        'k3s.service\n',
      );
      expect(await lab.nodes.readNodeState('stopped-units', DEV_ADDRESSES['k3s-dev-2'])).toBeUndefined();
      const paths = lab.sim.requests.map((request) => `${request.method} ${request.path}`);
      const deletedAt = paths.indexOf('DELETE /api/v1/nodes/k3s-dev-3');
      const joinedAt = paths.indexOf('POST /_sim/nodes/k3s-dev-3/join');
      expect(deletedAt).toBeGreaterThan(-1);
      expect(joinedAt).toBeGreaterThan(deletedAt);
      expect(node('k3s-dev-3')?.metadata.uid).not.toBe(oldNodeUid);

      // tofu: previewed with plan, then applied with -replace, on the ops host, bound to the repo's commit.
      const rebuild = job.approvals.requests[1]!.binding;
      expect(rebuild.commit).toBe(commit);
      expect(rebuild.commandLine).toBe(
        `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.root}/infra/tofu && tofu apply '-replace=${TOFU_RESOURCE('k3s-dev-3')}' -auto-approve -input=false -no-color`,
      );
      expect(rebuild.preview).toMatchObject({
        ran: true,
        diffExcerpt: 'Plan: 1 to add, 0 to change, 1 to destroy.',
      });
      expect(await lab.ops.readNodeState('tofu-calls', '127.0.0.1')).toBe(
        [
          `plan -replace=${TOFU_RESOURCE('k3s-dev-3')} -input=false -no-color`,
          `apply -replace=${TOFU_RESOURCE('k3s-dev-3')} -auto-approve -input=false -no-color`,
          '',
        ].join('\n'),
      );

      // The new host key is shown and pinned for this job only: known_hosts is untouched and still refuses it.
      expect(newFingerprint).toMatch(/^SHA256:/);
      expect(texts).toContain(`6-wait-ssh k3s-dev-3 answers with host key ${newFingerprint}`);
      expect(texts).toContain(
        `6-wait-ssh succeeded: k3s-dev-3 is up; new host key ${newFingerprint} pinned for this job only`,
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

      // The node-host layers re-run on that node only; the VPN gateway checks pass through the pinned key.
      expect(await lab.playbookRuns()).toEqual([
        'ansible-playbook playbooks/node-baseline.yml --limit k3s-dev-3',
        'ansible-playbook playbooks/k3s.yml --limit k3s-dev-3',
        'ansible-playbook playbooks/kube-vip.yml --limit k3s-dev-3',
        'ansible-playbook playbooks/vpn.egress.gateway.yml --limit k3s-dev-3',
      ]);
      expect(texts).toContain(
        '11-vpn-check succeeded: vpn-egress-tunnel.service active; tun0 exits from 203.0.113.7 (not the home ISP)',
      );
      expect(texts).toContainEqual(
        expect.stringMatching(
          /^12-node-ready succeeded: k3s-dev-3 Ready, agent cilium-\w+ Ready, every server Ready with the etcd role$/,
        ),
      );
      expect(texts).toContain('13-uncordon succeeded: k3s-dev-3 schedulable again');
      expect(node('k3s-dev-3')?.spec.unschedulable).toBeFalsy();
      expect(isReady('k3s-dev-3')).toBe(true);
      expect(texts).toContain(
        '14-verify succeeded: 3/3 nodes Ready, 3/3 updated, 3/3 available, hubble-relay 1/1 available, kube-proxy absent, maxUnavailable 1',
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
