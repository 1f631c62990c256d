import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { clusterKubeconfigStep } from '../../src/lifecycle/kubeconfig/cluster-kubeconfig-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createMemoryKubeconfigs } from '../support/memory-kubeconfigs.js';
import { opsRepoFiles } from '../support/ops-repo-files.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const FRESH = 'apiVersion: v1\nkind: Config\nusers: [{name: default, user: {token: fresh-secret-token}}]';

async function check(
  cluster: 'dev' | 'prod',
  files: Record<string, string>,
  options: { kubeWorks?: boolean; reaches?: (text: string) => number | undefined } = {},
) {
  const memoryKube = createMemoryKube();
  memoryKube.setUnreachable(!options.kubeWorks);
  const kubeconfigs = createMemoryKubeconfigs(
    options.reaches ?? ((text) => (text.includes('fresh') ? 3 : undefined)),
  );
  const shell = createScriptedShell(opsRepoFiles(files));
  const { result, reporter } = await runSteps({
    world,
    command: { verb: 'verify', cluster },
    steps: [clusterKubeconfigStep('3-k3s-kubeconfig', cluster)],
    shell,
    kube: memoryKube.kube,
    kubeconfigs: kubeconfigs.keeper,
  });
  return { result, shell, reporter, adopted: kubeconfigs.adopted };
}

const DEV_VARS = {
  'infra/ansible/group_vars/all.yml':
    'k3s_primary_group: k3s_primary\ncluster_kubeconfig_name: dev.kubeconfig\n',
};

describe('the cluster kubeconfig after k3s.yml', () => {
  it('keeps the kubeconfig in use when it reaches the cluster, reading nothing on the ops host', async () => {
    const { result, shell, reporter } = await check('dev', DEV_VARS, { kubeWorks: true });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(shell.calls).toEqual([]);
    expect(reporter.texts()).toContain(
      '3-k3s-kubeconfig succeeded: the kubeconfig in use reaches dev (3 nodes)',
    );
  });

  it('dev: fetches .cache/dev.kubeconfig (named in group_vars/all.yml), adopts it, says so, never shows it', async () => {
    const { result, adopted, reporter } = await check('dev', { ...DEV_VARS, '.cache/dev.kubeconfig': FRESH });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(adopted).toEqual([{ cluster: 'dev', kubeconfig: `${FRESH}\n` }]);
    expect(reporter.texts()).toContain(
      '3-k3s-kubeconfig succeeded: now using .cache/dev.kubeconfig from the ops host (k3s.yml wrote it; it reaches dev: 3 nodes), kept at /data/kubeconfigs/dev.kubeconfig and preferred from now on',
    );
    expect(reporter.texts()).toContain(
      '3-k3s-kubeconfig the kubeconfig in use does not reach dev: connect ECONNREFUSED 127.0.0.1:6443',
    );
    expect(JSON.stringify(reporter.events)).not.toContain('fresh-secret-token');
  });

  it("prod: the name comes from group_vars/k3s_prod/vars.yml, over all.yml's", async () => {
    const { adopted } = await check('prod', {
      ...DEV_VARS,
      'infra/ansible/group_vars/k3s_prod/vars.yml': 'cluster_kubeconfig_name: prod.kubeconfig\n',
      '.cache/dev.kubeconfig': 'dev one, never fetched for prod',
      '.cache/prod.kubeconfig': FRESH,
    });
    expect(adopted.map((entry) => entry.cluster)).toEqual(['prod']);
    expect(adopted[0]!.kubeconfig).toContain('fresh');
  });

  it.each([
    [
      'the fetched one does not reach the cluster either',
      { ...DEV_VARS, '.cache/dev.kubeconfig': 'stale' },
      /neither does \.cache\/dev\.kubeconfig: .*401/,
    ],
    [
      'the k3s role wrote none',
      DEV_VARS,
      /\.cache\/dev\.kubeconfig \(infra\/ansible\/group_vars\/all\.yml\) cannot be read on the ops host/,
    ],
    ['group_vars name none', {}, /cluster_kubeconfig_name is set in none of its group_vars/],
    [
      'the name is a path',
      { 'infra/ansible/group_vars/all.yml': 'cluster_kubeconfig_name: ../../.ssh/id_ed25519\n' },
      /not a plain file name/,
    ],
  ])('fails clearly, keeping nothing, when %s', async (_case, files, message) => {
    const { result, adopted, reporter } = await check('dev', files);
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(adopted).toEqual([]);
    expect(reporter.planFailure()).toMatchObject({
      code: 'KUBE_UNREACHABLE',
      message: expect.stringMatching(message),
    });
  });
});
