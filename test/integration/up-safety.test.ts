import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { reprovisionPlan } from '../../src/lifecycle/plans/reprovision-plan.js';
import { upPlan } from '../../src/lifecycle/plans/up-plan.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS, UNSERVED_ADDRESS } from '../support/lab-names.js';
import { labStepContext } from '../support/lab-step-context.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const dev = () => lab.world.clusters.dev!;
const upStep = (id: string) => upPlan(lab.world, dev()).find((step) => step.id === id)!;

const FOUNDER_PROCEDURE =
  'k3s-dev-1 is the --cluster-init founder (the k3s_primary group in hosts.ini): re-running k3s on it after a wipe founds a NEW cluster ' +
  '(fresh etcd) whose kube-vip contends for the same VIP. Move the founder role to another server in inventory/hosts.ini, commit, then reprovision k3s-dev-1';
/** What the bot reads from kube-sim while it destroys every connection. */
const API_DOWN = String.raw`dev's API does not answer \(list nodes: Kubernetes API unreachable \(.+\)\)`;

/** Runs `up dev` as approvers clicking everything would: it must fail before any approval or playbook. Its refusals. */
async function upDevRefused(world?: WorldConfig): Promise<unknown> {
  const runsBefore = (await lab.playbookRuns()).length;
  const job = lab.startJob('up dev', world ? { world } : {});
  expect(await job.runUntilDone({ approve: true })).toMatchObject({ status: 'finished', outcome: 'failed' });
  expect(job.approvals.requests).toEqual([]);
  expect(job.texts()).toContain('2-node-baseline skipped: not run');
  expect(await lab.playbookRuns()).toHaveLength(runsBefore);
  return job.reporter.planFailure()?.details?.failures;
}

/**
 * Wipes k3s from these dev servers as a reinstall outside the bot would (what the k3s role left in
 * their /etc/rancher/k3s is gone) and takes the API down with the founder, whose address serves it.
 * Returns what puts both back.
 */
async function wipeWithApiDown(hosts: readonly string[]): Promise<() => Promise<void>> {
  const kept = await mkdtemp(join(tmpdir(), 'cb-wiped-k3s-'));
  // A wiped node has neither /etc/rancher/k3s nor /var/lib/rancher/k3s (the lab's `k3s` and `k3s-data`).
  const k3sDirs = (host: string) =>
    ['k3s', 'k3s-data'].map((dir) => ({
      dir,
      path: join(lab.repo.root, INFRA_REPO_PATHS.labOut, host, dir),
    }));
  for (const host of hosts) {
    for (const { dir, path } of k3sDirs(host)) {
      await cp(path, join(kept, host, dir), { recursive: true }).catch(() => undefined);
      await rm(path, { recursive: true, force: true });
    }
  }
  lab.sim.setUnreachable(true);
  return async () => {
    lab.sim.setUnreachable(false);
    for (const host of hosts) {
      for (const { dir, path } of k3sDirs(host))
        await cp(join(kept, host, dir), path, { recursive: true }).catch(() => undefined);
    }
    await rm(kept, { recursive: true, force: true });
  };
}

describe('up and reprovision never re-found the cluster or cut off its API (real ansible, kube-sim)', () => {
  it(
    'k3s.yml on the formed cluster runs unasked when its --check --diff preview shows no change',
    async () => {
      const ctx = labStepContext(lab, 'dev');
      expect(await upStep('3-k3s').approval!.required(ctx)).toBe(false);
      expect(ctx.progressed).toContain(
        'k3s.yml --check --diff: no change on the formed cluster, nothing to approve',
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a change k3s.yml would make on the formed cluster asks first, with its preview, from a clean checkout',
    async () => {
      const k3s = upStep('3-k3s');
      expect(k3s.approval!.mark).toBe('⚠ first run or a change');
      const allVars = await lab.repo.readFile(INFRA_REPO_PATHS.allVars);
      await lab.repo.writeFile(INFRA_REPO_PATHS.allVars, allVars.replace('v1.36.4+k3s1', 'v1.37.0+k3s1'));
      try {
        const ctx = labStepContext(lab, 'dev');
        await expect(k3s.approval!.bind(ctx)).rejects.toThrow(/uncommitted|dirty|clean/i);
        await lab.repo.commit('dev: k3s v1.37.0');
        expect(await k3s.approval!.required(ctx)).toBe(true);
        expect(ctx.progressed).toContainEqual(
          expect.stringMatching(
            /^k3s\.yml --check --diff would change k3s-dev-1: .*k3s_server : Install k3s/,
          ),
        );
        const binding = await k3s.approval!.bind(ctx);
        expect(binding.commit).toBe(await lab.repo.head());
        expect(binding.preview?.changedTasks['k3s-dev-2']).toContain('k3s_server : Install k3s');
      } finally {
        await lab.repo.writeFile(INFRA_REPO_PATHS.allVars, allVars);
        await lab.repo.commit('dev: back to k3s v1.36.4');
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it('the Cilium approval of up says a first install starts every agent at once', () => {
    expect(upStep('5-cilium').approval!.reason).toMatch(
      /On a first install \(a cold bootstrap, as prod's\) maxUnavailable does not apply: every agent starts at once/,
    );
  });

  it(
    'reprovision refuses the node that is k3s_api_host, with the VIP procedure',
    async () => {
      const allVars = await lab.repo.readFile(INFRA_REPO_PATHS.allVars);
      const apiHost = dev().nodes.find((node) => node.name === 'k3s-dev-2')!.address;
      await lab.repo.writeFile(
        INFRA_REPO_PATHS.allVars,
        allVars.replace(/^k3s_api_host: \S+/m, `k3s_api_host: ${apiHost}`),
      );
      await lab.repo.commit('dev: API through k3s-dev-2');
      try {
        const job = lab.startJob('reprovision k3s-dev-2');
        expect(await job.runUntilDone({ approve: true })).toMatchObject({
          status: 'finished',
          outcome: 'failed',
        });
        expect(job.reporter.planFailure()?.details?.failures).toEqual([
          `k3s-dev-2 (${apiHost}) is k3s_api_host (infra/ansible/group_vars/all.yml): the API and every Cilium agent's k8sServiceHost go through it, so rebuilding it cuts them off (delete Node would fail against the API it stopped). Point k3s_api_host (and the bot's kubeconfig server) at the control-plane VIP (kube_vip_address) first, roll Cilium out with it, then reprovision k3s-dev-2`,
        ]);
        expect(job.approvals.requests).toEqual([]);
        expect(job.texts()).toContain('2-cordon-drain skipped: not run');
      } finally {
        await lab.repo.writeFile(INFRA_REPO_PATHS.allVars, allVars);
        await lab.repo.commit('dev: API host back');
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    "under --limit, k3s.yml must list the re-joining node only in the join play, never in the founder's play",
    async () => {
      const node = dev().nodes.find((entry) => entry.name === 'k3s-dev-2')!;
      const k3s = reprovisionPlan(lab.world, dev(), node).find((step) => step.title === 'k3s.yml')!;
      const ctx = labStepContext(lab, 'dev');
      expect(await k3s.check!(ctx)).toEqual([]);
      const inventory = await lab.repo.readFile(INFRA_REPO_PATHS.inventory);
      await lab.repo.writeFile(
        INFRA_REPO_PATHS.inventory,
        inventory.replace(/^\[k3s_primary\]\n/m, '[k3s_primary]\nk3s-dev-2\n'),
      );
      try {
        expect(await k3s.check!(ctx)).toEqual([
          expect.stringContaining(
            `k3s-dev-2 is in play 1 "k3s primary (cluster-init)" (pattern k3s_primary), the founder's --cluster-init play: a re-joining node must only be in the join play`,
          ),
        ]);
      } finally {
        await lab.repo.writeFile(INFRA_REPO_PATHS.inventory, inventory);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'up refuses before any playbook when the formed cluster has lost its founder (wiped outside the bot)',
    async () => {
      expect(lab.sim.removeNode('k3s-dev-1')).toBe(true);
      expect(await upDevRefused()).toEqual([
        `dev is formed (k3s-dev-2, k3s-dev-3 answer) but its founder k3s-dev-1 is not registered: k3s.yml would run --cluster-init on it. ${FOUNDER_PROCEDURE}`,
      ]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'up refuses before any playbook when the API is down with a wiped founder and the other servers still have k3s',
    async () => {
      const restore = await wipeWithApiDown(['k3s-dev-1']);
      try {
        expect(await upDevRefused()).toEqual([
          expect.stringMatching(
            new RegExp(
              `^${API_DOWN}, but k3s is installed on k3s-dev-2, k3s-dev-3 \\(/etc/rancher/k3s or /var/lib/rancher/k3s exists\\): ` +
                'the cluster is formed, and its founder k3s-dev-1 has no k3s \\(wiped\\?\\): k3s\\.yml would run --cluster-init on it beside the etcd the others hold\\. ',
            ),
          ),
        ]);
      } finally {
        await restore();
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'up refuses before any playbook when the API is down and a server does not answer: no first run is proven',
    async () => {
      const restore = await wipeWithApiDown(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
      try {
        const world = lab.worldWith({ devAddresses: { 'k3s-dev-2': UNSERVED_ADDRESS } });
        expect(await upDevRefused(world)).toEqual([
          expect.stringMatching(
            new RegExp(
              `^${API_DOWN} and k3s-dev-2 did not say whether k3s is installed there \\(.+\\): ` +
                'the bot cannot prove a first run, in which alone k3s\\.yml may found the cluster with --cluster-init on k3s-dev-1$',
            ),
          ),
        ]);
      } finally {
        await restore();
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a truly fresh cluster (no API, no server with k3s) still takes the first-run path: k3s.yml asks, as the founding',
    async () => {
      const restore = await wipeWithApiDown(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
      try {
        const job = lab.startJob('up dev');
        expect(await job.runUntilDone()).toMatchObject({ status: 'waiting', stepId: '3-k3s' });
        expect(job.texts()).toContainEqual(
          expect.stringMatching(/^1-preconditions succeeded: 6 checks passed: /),
        );
        expect(job.approvals.requests).toEqual([
          expect.objectContaining({
            stepId: '3-k3s',
            reason: expect.stringMatching(/^first run: founds the cluster/),
          }),
        ]);
        // A first run asks without a --check --diff preview deciding it.
        expect(job.texts()).not.toContainEqual(expect.stringContaining('k3s.yml --check --diff'));
      } finally {
        await restore();
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
