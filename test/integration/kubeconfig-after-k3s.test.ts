import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

describe('the kubeconfig after k3s.yml, against the lab', () => {
  it(
    'a cluster founded anew with a stale kubeconfig: up dev fetches the one the k3s role wrote on the ops host, proves it, uses it and keeps it',
    async () => {
      // The servers were reinstalled to found the cluster anew: none has k3s, so with the API not
      // answering the bot's credentials this is a proven first run. The bot's configured kubeconfig (a
      // mounted secret) still holds the previous cluster's.
      for (const host of ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']) {
        await rm(join(lab.repo.root, INFRA_REPO_PATHS.labOut, host, 'k3s'), { recursive: true });
      }
      const configured = lab.world.clusters.dev!.kubeconfigPath;
      const stale = lab.sim.kubeconfig.replace(lab.sim.token, 'token-of-the-previous-cluster');
      await writeFile(configured, stale, { mode: 0o400 });

      const job = lab.startJob('up dev');
      const result = await job.runUntilDone({ approve: true });

      expect(job.reporter.planFailure()).toBeUndefined();
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      const texts = job.texts();
      const kept = join(lab.dataDir, 'kubeconfigs', 'dev.kubeconfig');
      expect(texts).toContainEqual(
        expect.stringMatching(/^3-k3s-kubeconfig the kubeconfig in use does not reach dev: .*401/),
      );
      expect(texts).toContain(
        `3-k3s-kubeconfig succeeded: now using .cache/dev.kubeconfig from the ops host (k3s.yml wrote it; it reaches dev: 3 nodes), kept at ${kept} and preferred from now on`,
      );
      // What followed k3s.yml ran on the API with the fetched kubeconfig.
      expect(texts).toContain(
        '13-verify succeeded: 3/3 nodes Ready, 3/3 updated, 3/3 available, hubble-relay 1/1 available, ' +
          'kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on k3s-dev-1, k3s-dev-2, ' +
          "k3s-dev-3 (their Nodes' k3s.io/node-args), Cilium kube-proxy-replacement true, maxUnavailable 1",
      );
      // Kept privately under DATA_DIR; the configured (read-only) file is left as it was; no credential shown.
      expect(await readFile(kept, 'utf8')).toBe(lab.sim.kubeconfig);
      expect((await stat(kept)).mode & 0o777).toBe(0o600);
      expect(await readFile(configured, 'utf8')).toBe(stale);
      expect(JSON.stringify(job.reporter.events)).not.toContain(lab.sim.token);
      expect(job.reporter.lines.join('\n')).not.toContain(lab.sim.token);

      // Preferred afterwards: a later verify reaches the cluster although the configured one still fails.
      const verify = lab.startJob('verify dev');
      expect(await verify.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
