import { access, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
  // The bot's mounted kubeconfig is stale (a token of before the cluster was founded again), and
  // the ops host holds the one the k3s role wrote then: what a restarted pod finds.
  const configured = lab.world.clusters.dev!.kubeconfigPath;
  await writeFile(configured, lab.sim.kubeconfig.replace(lab.sim.token, 'token-of-the-previous-cluster'), {
    mode: 0o400,
  });
  await writeOpsCopy(lab.sim.kubeconfig);
});
afterAll(async () => {
  await lab?.stop();
});

/** `.cache/dev.kubeconfig` in the repo on the ops host, as k3s.yml writes it. */
async function writeOpsCopy(text: string): Promise<void> {
  await mkdir(join(lab.repo.root, '.cache'), { recursive: true });
  await writeFile(join(lab.repo.root, '.cache', 'dev.kubeconfig'), text, { mode: 0o600 });
}

const USING_OPS_COPY =
  /^1-preconditions the kubeconfig in use does not reach dev \(list nodes: HTTP 401\): now using \.cache\/dev\.kubeconfig from the ops host, proved here \(its server is one named for dev; it lists dev's 3 nodes\), kept at (\S+) for this worker$/;

describe('a worker that adopted nothing: the ops host kubeconfig, fetched and proved again (real ansible, sshd, kube-sim)', () => {
  it(
    "a gate, then up dev on a restarted worker (fresh DATA_DIR): the founder check proves the ops host's kubeconfig, says so, and up runs",
    async () => {
      const gate = lab.startJob('verify dev');
      expect(await gate.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(gate.texts()).toContainEqual(
        expect.stringMatching(/^1-\S+ the kubeconfig in use does not reach dev/),
      );
      const firstKept = join(lab.dataDir, 'kubeconfigs', 'dev.kubeconfig');
      await access(firstKept);

      // The pod restarts: its DATA_DIR (an emptyDir) is new and the first pod's file is not there.
      const dataDir = await lab.restartWorker();
      const job = lab.startJob('up dev');
      const result = await job.runUntilDone({ approve: true });

      expect(job.reporter.planFailure()).toBeUndefined();
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      const texts = job.texts();
      const note = texts.find((text) => USING_OPS_COPY.test(text));
      expect(note, texts.filter((text) => text.startsWith('1-')).join('\n')).toBeDefined();
      expect(USING_OPS_COPY.exec(note!)![1]).toBe(join(dataDir, 'kubeconfigs', 'dev.kubeconfig'));
      // The cluster is formed: no first-run approval of k3s.yml, and the founder check passed.
      expect(job.approvals.requests.map((request) => request.stepId)).not.toContain('3-k3s');
      expect(texts).toContain('3-k3s-kubeconfig succeeded: the kubeconfig in use reaches dev (3 nodes)');
      expect(JSON.stringify(job.reporter.events)).not.toContain(lab.sim.token);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'an ops host kubeconfig that would run a program is never loaded: the founder check still refuses, saying why it was not used',
    async () => {
      const marker = join(lab.dataDir, 'exec-plugin-ran');
      const withPlugin = parse(lab.sim.kubeconfig) as { users: { user: Record<string, unknown> }[] };
      withPlugin.users[0]!.user = {
        exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch', args: [marker] },
      };
      await writeOpsCopy(stringify(withPlugin));
      const dataDir = await lab.restartWorker();

      const job = lab.startJob('up dev');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          /^1-preconditions the kubeconfig in use does not reach dev \(list nodes: HTTP 401\), and \.cache\/dev\.kubeconfig from the ops host was not used: .*exec.*runs a program/,
        ),
      );
      expect(job.reporter.planFailure()?.details?.failures).toContainEqual(
        expect.stringMatching(/^dev's API does not answer .* the cluster is formed/),
      );
      await expect(access(marker)).rejects.toThrow();
      expect(await readdir(join(dataDir, 'kubeconfigs')).catch(() => [])).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
