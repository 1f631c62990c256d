import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
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

const DEV_VARS = {
  'infra/ansible/group_vars/all.yml':
    'k3s_primary_group: k3s_primary\ncluster_kubeconfig_name: dev.kubeconfig\n',
};
const FRESH = 'apiVersion: v1\nkind: Config\nusers: [{name: default, user: {token: fresh-secret-token}}]';

/** Two steps that each read the API twice, as a precondition and a gate do. */
const readsTwice = (id: string): Step => ({
  id,
  title: 'reads',
  target: 'dev',
  async run(ctx) {
    const nodes = await ctx.kube.listNodes().catch(() => ctx.kube.listNodes());
    return { status: 'succeeded', summary: `${nodes.length} nodes` };
  },
});

/** dev through a kubeconfig that fails with `failure` until a proved one is adopted. */
async function run(files: Record<string, string>, failure: ClusterBotError) {
  const memory = createMemoryKube();
  let adoptedOne = false;
  const kube = {
    ...memory.kube,
    listNodes: async () => {
      if (!adoptedOne) throw failure;
      return memory.kube.listNodes();
    },
  };
  const kubeconfigs = createMemoryKubeconfigs((text) => {
    if (!text.includes('fresh')) return undefined;
    adoptedOne = true;
    return 3;
  });
  const shell = createScriptedShell(opsRepoFiles(files));
  const { result, reporter } = await runSteps({
    world,
    steps: [readsTwice('1-first'), readsTwice('2-second')],
    shell,
    kube,
    kubeconfigs: kubeconfigs.keeper,
  });
  const fetches = () => shell.calls.filter((call) => call.argv.at(-1)?.endsWith('/.cache/dev.kubeconfig'));
  return { result, reporter, adopted: kubeconfigs.adopted, fetches, shell };
}

const UNAUTHORIZED = new ClusterBotError('KUBE_REQUEST_FAILED', 'list nodes: HTTP 401', {
  details: { status: 401 },
});

describe('a step whose kubeconfig in use does not reach the cluster (a worker that proved none of its own)', () => {
  it("fetches the ops host's, once, has it proved, uses it and says which kubeconfig it uses", async () => {
    const { result, reporter, adopted, fetches } = await run(
      { ...DEV_VARS, '.cache/dev.kubeconfig': FRESH },
      UNAUTHORIZED,
    );
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(adopted).toEqual([{ cluster: 'dev', kubeconfig: `${FRESH}\n` }]);
    expect(fetches()).toHaveLength(1);
    expect(reporter.texts()).toContain(
      "1-first the kubeconfig in use does not reach dev (list nodes: HTTP 401): now using .cache/dev.kubeconfig from the ops host, proved here (its server is one named for dev; it lists dev's 3 nodes), kept at /data/kubeconfigs/dev.kubeconfig for this worker",
    );
    expect(reporter.texts()).toContain('2-second succeeded: 3 nodes');
    expect(JSON.stringify(reporter.events)).not.toContain('fresh-secret-token');
  });

  it('one the proof refuses is not used, said once a step, and the call fails as it did', async () => {
    const { result, reporter, adopted, fetches } = await run(
      { ...DEV_VARS, '.cache/dev.kubeconfig': 'stale' },
      UNAUTHORIZED,
    );
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(reporter.planFailure()).toMatchObject({ message: 'list nodes: HTTP 401' });
    expect(adopted).toEqual([]);
    expect(fetches()).toHaveLength(1);
    expect(reporter.texts().filter((text) => text.includes('was not used'))).toEqual([
      '1-first the kubeconfig in use does not reach dev (list nodes: HTTP 401), and .cache/dev.kubeconfig from the ops host was not used: that kubeconfig does not reach dev: 401 Unauthorized',
    ]);
  });

  it('none on the ops host (a cluster not formed yet): nothing said, the call fails as it did', async () => {
    const { reporter, fetches } = await run(DEV_VARS, UNAUTHORIZED);
    expect(reporter.planFailure()).toMatchObject({ message: 'list nodes: HTTP 401' });
    expect(fetches()).toHaveLength(1);
    expect(reporter.events.filter((event) => event.type === 'note')).toEqual([]);
  });

  it('an answer through working credentials (403) is no reason to look for another kubeconfig', async () => {
    const forbidden = new ClusterBotError('KUBE_REQUEST_FAILED', 'list nodes: forbidden', {
      details: { status: 403 },
    });
    const { reporter, shell } = await run({ ...DEV_VARS, '.cache/dev.kubeconfig': FRESH }, forbidden);
    expect(reporter.planFailure()).toMatchObject({ message: 'list nodes: forbidden' });
    expect(shell.calls).toEqual([]);
  });
});
