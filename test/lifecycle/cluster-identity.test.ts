import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { clusterKubeconfigEnv } from '../../src/lifecycle/ansible/cluster-kubeconfig-env.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { clustersDistinct } from '../../src/lifecycle/preconditions/clusters-distinct.js';
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

const ALL = 'infra/ansible/group_vars/all.yml';
const PROD = 'infra/ansible/group_vars/k3s_prod/vars.yml';
const DEV_VARS =
  'k3s_api_host: 192.168.1.41\nkube_vip_address: 192.168.1.49\ncluster_kubeconfig_name: dev.kubeconfig\n';
const PROD_VARS =
  'k3s_servers_group: k3s_prod\nk3s_api_host: 192.168.2.10\nkube_vip_address: 192.168.2.9\ncluster_kubeconfig_name: prod.kubeconfig\n';

async function run(step: Step, prodVars: string) {
  const memoryKube = createMemoryKube();
  const { result, reporter } = await runSteps({
    world,
    command: { verb: 'verify', cluster: 'prod' },
    steps: [step],
    shell: createScriptedShell(opsRepoFiles({ [ALL]: DEV_VARS, [PROD]: prodVars })),
    kube: memoryKube.kube,
    kubeconfigs: createMemoryKubeconfigs(() => undefined).keeper,
  });
  return { ...result, texts: reporter.texts() };
}

// The precondition alone, as the preconditions step of `up` runs it (the others need a whole repo).
const preconditions: Step = {
  id: '1-preconditions',
  title: 'preconditions',
  target: 'prod',
  async run(ctx) {
    const problems = await clustersDistinct.check(ctx, undefined as never);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return { status: 'succeeded', summary: 'distinct' };
  },
};

describe("a cluster's kubeconfig, VIP and API host are its own", () => {
  it('passes when prod sets its own three vars', async () => {
    expect(await run(preconditions, PROD_VARS)).toMatchObject({ outcome: 'succeeded' });
  });

  it("refuses prod inheriting dev's three vars from all.yml, naming each var, both clusters and both files", async () => {
    const result = await run(preconditions, 'k3s_servers_group: k3s_prod\n');
    expect(result).toMatchObject({ outcome: 'failed' });
    const text = JSON.stringify(result);
    for (const [name, value] of [
      ['cluster_kubeconfig_name', 'dev.kubeconfig'],
      ['kube_vip_address', '192.168.1.49'],
      ['k3s_api_host', '192.168.1.41'],
    ])
      expect(text).toContain(`${name} resolves to ${value} for both prod (${ALL}) and dev (${ALL})`);
  });

  it("gives prod's commands no KUBECONFIG when prod's vars.yml leaves cluster_kubeconfig_name to all.yml", async () => {
    const envStep: Step = {
      id: '1-env',
      title: 'env',
      target: 'prod',
      async run(ctx) {
        return { status: 'succeeded', summary: (await clusterKubeconfigEnv(ctx)).KUBECONFIG };
      },
    };
    expect(JSON.stringify(await run(envStep, PROD_VARS))).toContain('/.cache/prod.kubeconfig');
    const result = await run(envStep, PROD_VARS.replace('cluster_kubeconfig_name: prod.kubeconfig\n', ''));
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(JSON.stringify(result)).toContain(
      `cluster_kubeconfig_name resolves to dev.kubeconfig for both prod (${ALL}) and dev (${ALL})`,
    );
  });
});
