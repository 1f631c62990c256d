import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { type DevNode, LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LabJob, type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: LifecycleLab;
let allVars: string;
beforeAll(async () => {
  lab = await startLifecycleLab();
  allVars = await lab.repo.readFile(INFRA_REPO_PATHS.allVars);
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

const SEEDED = 'v1.36.4+k3s1';
/** The order the servers go in: the config's, the founder (k3s-dev-1) last. */
const ORDER: readonly DevNode[] = ['k3s-dev-2', 'k3s-dev-3', 'k3s-dev-1'];

/** The repo's k3s_version (group_vars/all.yml), committed: what an upgrade installs. */
async function commitVersion(version: string) {
  await lab.repo.writeFile(INFRA_REPO_PATHS.allVars, allVars.replace(SEEDED, version));
  await lab.repo.commit(`dev: k3s ${version}`);
}

/** Each dev server's kubeletVersion, as the API reports it. */
const versions = async () =>
  Object.fromEntries((await lab.devKube.listNodes()).map((node) => [node.name, node.kubeletVersion]));
const k3sRuns = async () => (await lab.playbookRuns()).filter((run) => run.includes('playbooks/k3s.yml'));
const installed = (node: DevNode) =>
  lab.repo.readFile(`${INFRA_REPO_PATHS.labOut}/${node}/k3s/installed-version`).catch(() => undefined);
const alerts = (job: LabJob) =>
  job.reporter.events.flatMap((event: LifecycleEvent) =>
    event.type === 'gate-failed' ? [`${event.gate}: ${event.observed}`] : [],
  );

/** With `version` committed, `upgrade dev` is refused before any approval, each server named; nothing runs. */
async function expectRefused(version: string, reason: (node: DevNode) => string) {
  await commitVersion(version);
  const job = lab.startJob('upgrade dev');
  expect(await job.runUntilDone({ approve: true })).toMatchObject({ status: 'finished', outcome: 'failed' });
  const refusal = job.texts().find((text) => text.startsWith('1-preconditions failed')) ?? '';
  for (const node of ORDER) expect(refusal).toContain(reason(node));
  expect(job.approvals.requests).toEqual([]);
  expect(await k3sRuns()).toEqual([]);
}

// One file, in order: each test upgrades the same lab cluster further; the one that leaves a server down is last.
describe('/cluster upgrade dev against the lab', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it("refuses a jump of more than one minor version, naming every server's version and the target, before anything is asked or touched", async () => {
    await expectRefused(
      'v1.38.0+k3s1',
      (node) =>
        `${node} runs ${SEEDED}, more than one minor version below v1.38.0+k3s1: upgrade one minor version at a time`,
    );
  });

  it('refuses a downgrade, naming every server', async () => {
    await expectRefused(
      'v1.36.1+k3s1',
      (node) => `${node} runs ${SEEDED}, newer than v1.36.1+k3s1: a downgrade is refused`,
    );
  });

  it('refuses servers that resolve k3s_version differently (a committed host_vars override), naming each with its value', async () => {
    const hostVars = 'infra/ansible/inventory/host_vars/k3s-dev-3.yml';
    await lab.repo.writeFile(hostVars, 'k3s_version: v1.37.1+k3s1\n');
    await commitVersion('v1.37.0+k3s1');
    try {
      const job = lab.startJob('upgrade dev');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(job.texts().find((text) => text.startsWith('1-preconditions failed'))).toContain(
        "k3s_version does not resolve to one target for dev's servers: k3s-dev-2 v1.37.0+k3s1, k3s-dev-3 v1.37.1+k3s1, k3s-dev-1 v1.37.0+k3s1",
      );
      expect(job.approvals.requests).toEqual([]);
      expect(await k3sRuns()).toEqual([]);
    } finally {
      await lab.repo.removeFile(hostVars);
      await lab.repo.commit("k3s-dev-3: the cluster's k3s_version again");
    }
  });

  it('plan upgrade shows every command line in order and runs the read-only checks, changing nothing', async () => {
    await commitVersion('v1.37.0+k3s1');
    const job = lab.startJob('plan upgrade dev');
    expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    const plan = job.texts().find((text) => text.includes('Plan for `upgrade dev`')) ?? '';
    const commands = plan.split('\n').filter((line) => line.startsWith('   '));
    expect(commands).toEqual([
      '   k3s etcd-snapshot save --name cluster-bot-<job> (on a Ready etcd server other than k3s-dev-2)',
      ...ORDER.flatMap((node) => [
        `   cordon ${node}; evict its pods (Eviction API, PodDisruptionBudgets honoured)`,
        expect.stringMatching(
          new RegExp(
            `cd \\S+/infra/ansible && ansible-playbook -i inventory/hosts\\.ini playbooks/k3s\\.yml --limit ${node}$`,
          ),
        ),
        `   uncordon ${node}`,
      ]),
    ]);
    expect(job.texts().some((text) => /passes the checks of its \d+ checked steps/.test(text))).toBe(true);
    expect(job.approvals.requests).toEqual([]);
    expect(await k3sRuns()).toEqual([]);
    expect(await versions()).toEqual({ 'k3s-dev-1': SEEDED, 'k3s-dev-2': SEEDED, 'k3s-dev-3': SEEDED });
  });

  it('upgrades one server at a time, the founder last, after one approval that lists them old → new', async () => {
    const job = lab.startJob('upgrade dev');
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    const [request] = job.approvals.requests;
    expect(request?.binding.targets).toBe(
      ORDER.map((node) => `${node} (${SEEDED} → v1.37.0+k3s1)`).join(', then '),
    );
    expect(request?.binding.commit).toBe(await lab.repo.head());
    expect(job.approvals.requests).toHaveLength(1);
    // k3s.yml once per server, alone, in that order; each now runs what it installed.
    expect(await k3sRuns()).toEqual(
      ORDER.map((node) => `ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit ${node}`),
    );
    expect(await versions()).toEqual({
      'k3s-dev-1': 'v1.37.0+k3s1',
      'k3s-dev-2': 'v1.37.0+k3s1',
      'k3s-dev-3': 'v1.37.0+k3s1',
    });
    for (const node of ORDER) expect(await installed(node)).toBe('v1.37.0+k3s1\n');
    expect(
      (await lab.devKube.listNodes()).every((node) => node.ready && node.etcd && !node.unschedulable),
    ).toBe(true);
    // The snapshot went on a server that was not the first to go, before anything was drained.
    expect(job.texts()).toContainEqual(
      expect.stringMatching(
        new RegExp(`^3-etcd-snapshot succeeded: etcd snapshot cluster-bot-${job.jobId}\\S* on k3s-dev-1$`),
      ),
    );
    for (const node of ORDER)
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          new RegExp(`^\\d+-upgraded-${node} succeeded: ${node} v1\\.36\\.4\\+k3s1 → v1\\.37\\.0\\+k3s1: `),
        ),
      );
    expect(job.texts().filter((text) => /^\d+-verify-k3s-dev-\d succeeded/.test(text))).toHaveLength(3);
    // The job page shows each server old → new beside its step (a step's notes are drawn there).
    expect(
      job.reporter.events.flatMap((event) =>
        event.type === 'note' && /^\d+-upgraded-/.test(event.stepId ?? '') ? [event.text] : [],
      ),
    ).toEqual(ORDER.map((node) => `${node}: ${SEEDED} → v1.37.0+k3s1`));
    expect(alerts(job)).toEqual([]);
  });
});

describe('/cluster upgrade dev: a worker killed mid-upgrade, a server that does not come back', {
  timeout: LAB_TEST_TIMEOUT_MS,
}, () => {
  it("a worker SIGKILLed while k3s.yml runs on the second server: the resumed job follows that run and finishes, each server's k3s.yml run once", async () => {
    await commitVersion('v1.37.1+k3s1');
    const runsBefore = (await k3sRuns()).length;
    const job = lab.startJob('upgrade dev');
    expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-approve-upgrade' });
    job.approvals.approve('2-approve-upgrade');
    await lab.setLab({ lab_sleep_seconds: 6 });
    const eventsBefore = (await lab.labEvents()).length;
    const running = job.run();
    await waitFor(
      'k3s.yml on k3s-dev-3 in its report task',
      async () =>
        (await lab.labEvents()).slice(eventsBefore).includes('k3s.yml k3s-dev-3') ? true : undefined,
      { timeoutMs: 90_000 },
    );
    // As a SIGKILL leaves it: nothing more reaches the job's store, its SSH sessions die under it.
    job.checkpoints.crash();
    await lab.ops.killSessions();
    await running.catch(() => undefined);
    await lab.setLab({});
    expect(job.checkpoints.records.get('12-k3s-k3s-dev-3')?.status).toBe('running');

    job.checkpoints.revive();
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    expect((await k3sRuns()).slice(runsBefore)).toEqual(
      ORDER.map((node) => `ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit ${node}`),
    );
    expect(job.approvals.requests).toHaveLength(1);
    expect(await versions()).toEqual({
      'k3s-dev-1': 'v1.37.1+k3s1',
      'k3s-dev-2': 'v1.37.1+k3s1',
      'k3s-dev-3': 'v1.37.1+k3s1',
    });
    expect((await lab.devKube.listNodes()).every((node) => node.ready && !node.unschedulable)).toBe(true);
    expect(job.texts()).toContainEqual(
      expect.stringMatching(/worker restarted; following the running `k3s\.yml`/),
    );
  });

  it('stops at the first server that does not come back: alerts, posts every server old → new, leaves the rest untouched', async () => {
    await commitVersion('v1.37.2+k3s1');
    lab.sim.failK3sStart('k3s-dev-3');
    const runsBefore = (await k3sRuns()).length;
    const job = lab.startJob('upgrade dev');
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'failed',
    });

    expect((await k3sRuns()).slice(runsBefore)).toEqual([
      'ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-2',
      'ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-3',
    ]);
    expect(await versions()).toEqual({
      'k3s-dev-1': 'v1.37.1+k3s1',
      'k3s-dev-2': 'v1.37.2+k3s1',
      'k3s-dev-3': 'v1.37.1+k3s1',
    });
    expect(alerts(job)).toContainEqual(
      expect.stringMatching(
        /^k3s-dev-3 at v1\.37\.2\+k3s1 with the etcd role: k3s-dev-3 still runs v1\.37\.1\+k3s1, NotReady/,
      ),
    );
    const stopped =
      job
        .texts()
        .find((text) => text.includes('The upgrade stopped at back at the new version of k3s-dev-3')) ?? '';
    expect(stopped).toContain(
      'k3s-dev-2: v1.37.1+k3s1 → v1.37.2+k3s1 (upgraded) · Ready · schedulable · etcd member',
    );
    expect(stopped).toMatch(
      /k3s-dev-3: v1\.37\.1\+k3s1 \(not upgraded; target v1\.37\.2\+k3s1\) · NotReady \(\w+\) · cordoned/,
    );
    expect(stopped).toContain(
      'k3s-dev-1: v1.37.1+k3s1 (not upgraded; target v1.37.2+k3s1) · Ready · schedulable',
    );
    expect(stopped).toContain('Untouched: k3s-dev-1.');
    expect(job.texts().some((text) => /^\d+-\w+-k3s-dev-1 (started|succeeded)/.test(text))).toBe(false);
  });
});
