import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const VALUES_FILES = [
  INFRA_REPO_PATHS.ciliumHelmRelease,
  INFRA_REPO_PATHS.ciliumTemplate,
  INFRA_REPO_PATHS.ciliumValues,
] as const;

let lab: LifecycleLab;
const originals = new Map<string, string>();
beforeAll(async () => {
  lab = await startLifecycleLab();
  for (const path of [...VALUES_FILES, INFRA_REPO_PATHS.ciliumDefaults])
    originals.set(path, await lab.repo.readFile(path));
});
afterAll(async () => {
  await lab?.stop();
});
afterEach(async () => {
  for (const [path, text] of originals) await lab.repo.writeFile(path, text);
  await lab.repo.commit('lab: back to the runbook’s files');
});

/** Commits edited files (the preflight reads the checkout the approval is bound to), then runs `cilium dev` up to its approval. */
async function preflightWith(
  edits: Readonly<Record<string, (text: string) => string>>,
  world: WorldConfig = lab.world,
) {
  for (const [path, edit] of Object.entries(edits))
    await lab.repo.writeFile(path, edit(originals.get(path)!));
  await lab.repo.commit('lab: edit the Cilium files');
  const job = lab.startJob('cilium dev', { world });
  const result = await job.run();
  return {
    result,
    texts: job.texts(),
    failure: job.reporter.failedStep()?.failure,
    asked: job.approvals.requests,
  };
}

const unmarked = (text: string) => text.replaceAll('[parity]', '');

describe('the Cilium preflight on the lab infra repo', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('with the files as they are, checks the fields they mark # [parity] and says so', async () => {
    const { result, texts } = await preflightWith({});
    expect(result).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(texts).toContain(
      "1-cilium-preflight succeeded: k8sServiceHost renders 127.0.1.11 (infra/ansible/group_vars/all.yml), the same in Flux's substitution; 15 parity fields agree across the three files " +
        "(from the # [parity] markers (helmrelease 15, template 15, reference 15) and the runbook's documented " +
        'contract), chart version matches cilium_version, maxUnavailable 1; ' +
        'not checked: the commit Flux serves (no GitRepository flux-system/flux-system on dev)',
    );
  });

  it('when no file marks a field, checks the documented contract instead of refusing, and says so', async () => {
    const edits = Object.fromEntries(VALUES_FILES.map((path) => [path, unmarked]));
    const { result, texts } = await preflightWith(edits);
    expect(result).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
    expect(texts).toContain(
      "1-cilium-preflight succeeded: k8sServiceHost renders 127.0.1.11 (infra/ansible/group_vars/all.yml), the same in Flux's substitution; 4 parity fields agree across the three files " +
        "(from the runbook's documented contract (kubeProxyReplacement, k8sServiceHost, k8sServicePort) plus " +
        'updateStrategy.rollingUpdate.maxUnavailable, as no file marks a field # [parity]), chart version matches ' +
        'cilium_version, maxUnavailable 1; not checked: the commit Flux serves (no GitRepository flux-system/flux-system on dev)',
    );
  });

  it('without markers, a documented field that differs is still refused by name', async () => {
    const edits: Record<string, (text: string) => string> = Object.fromEntries(
      VALUES_FILES.map((path) => [path, unmarked]),
    );
    edits[INFRA_REPO_PATHS.ciliumValues] = (text) =>
      unmarked(text).replace('k8sServicePort: 6443', 'k8sServicePort: 6444');
    const { result, failure } = await preflightWith(edits);
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(failure?.code).toBe('PRECONDITION_FAILED');
    expect(failure?.message).toContain(
      'parity field k8sServicePort differs: platform/cilium/helmrelease.yaml=6443, ' +
        'infra/ansible/roles/cilium/templates/cilium-values.yaml.j2=6443, platform/cilium/values.yaml=6444',
    );
  });

  it('refuses a cilium_version in the role defaults other than the HelmRelease’s chart version, naming both', async () => {
    const { result, failure, asked } = await preflightWith({
      [INFRA_REPO_PATHS.ciliumDefaults]: (text) =>
        text.replace('cilium_version: 1.20.1', 'cilium_version: 1.20.2'),
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(failure?.message).toContain(
      'Cilium chart versions differ: cilium_version 1.20.2 in infra/ansible/roles/cilium/defaults/main.yml, ' +
        'chart.spec.version 1.20.1 in platform/cilium/helmrelease.yaml',
    );
    expect(asked).toEqual([]);
  });

  it('refuses, and asks nothing, when the API will not show the live DaemonSet or HelmRelease (never a silent pass)', async () => {
    lab.sim.forbid(['daemonsets', 'helmreleases']);
    try {
      const { result, failure, asked } = await preflightWith({});
      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(failure?.message).toContain(
        'cannot read the live DaemonSet kube-system/cilium (read DaemonSet kube-system/cilium: ',
      );
      expect(failure?.message).toContain(
        'its maxUnavailable is unchecked and the rollout could not be watched',
      );
      expect(failure?.message).toContain(
        'cannot read the live HelmRelease kube-system/cilium (read HelmRelease kube-system/cilium: ',
      );
      expect(failure?.message).toContain(
        'is forbidden: User "system:serviceaccount:cluster-bot:cluster-bot"',
      );
      expect(asked).toEqual([]);
    } finally {
      lab.sim.forbid([]);
    }
  });

  it("refuses when the API it reaches has Nodes the cluster does not have (another cluster's kubeconfig)", async () => {
    // As if dev's kubeconfig reached a cluster with a node dev does not name: k3s-dev-3 here.
    const dev = lab.world.clusters.dev!;
    const world = {
      ...lab.world,
      clusters: {
        ...lab.world.clusters,
        dev: { ...dev, nodes: dev.nodes.filter((n) => n.name !== 'k3s-dev-3') },
      },
    };
    const { result, failure, asked } = await preflightWith({}, world);
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(failure?.message).toContain(
      'the API the bot reaches for dev has Nodes the config does not name for it (k3s-dev-3): ' +
        "its kubeconfig (clusters.dev.kubeconfigPath) may be another cluster's",
    );
    expect(asked).toEqual([]);
  });
});
