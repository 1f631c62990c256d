import { join } from 'node:path';
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const K3S_CONFIG = (host: string) => join(INFRA_REPO_PATHS.labOut, host, 'k3s', 'config.yaml');

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

async function verifyDev() {
  const job = lab.startJob('verify dev');
  const result = await job.runUntilDone();
  const gate = job.reporter.events.find(
    (event) => event.type === 'step-progress' && event.text.includes(' no kube-proxy: '),
  );
  return { result, job, kubeProxy: gate?.type === 'step-progress' ? gate.text : undefined };
}

/** verify dev fails on the kube-proxy gate alone, alerting with exactly this. */
async function expectKubeProxyGateToFail(observed: string): Promise<void> {
  const { result, job } = await verifyDev();
  expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
  const alerts = job.reporter.events.filter((event) => event.type === 'gate-failed');
  expect(alerts).toEqual([expect.objectContaining({ gate: 'no kube-proxy', observed })]);
}

async function setKubeProxyReplacement(value: string): Promise<void> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(lab.sim.kubeconfig);
  await kubeConfig.makeApiClient(CoreV1Api).patchNamespacedConfigMap(
    {
      name: 'cilium-config',
      namespace: 'kube-system',
      body: { data: { 'kube-proxy-replacement': value } },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

describe('the kube-proxy gate on k3s: each server started without kube-proxy, Cilium replacing it', {
  timeout: LAB_TEST_TIMEOUT_MS,
}, () => {
  it('passes on the formed lab cluster, having read each server’s k3s config over SSH (as root: no sudo)', async () => {
    const { result, kubeProxy } = await verifyDev();
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(kubeProxy).toBe(
      '✓ no kube-proxy: kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on ' +
        'k3s-dev-1, k3s-dev-2, k3s-dev-3, Cilium kube-proxy-replacement true',
    );
    const commands = await lab.nodes.commands();
    expect(commands.filter((line) => line === 'cat -- /etc/rancher/k3s/config.yaml')).toHaveLength(3);
    expect(commands).toContain('systemctl show --property=ExecStart --value k3s.service');
    expect(commands.filter((line) => line.includes('sudo'))).toEqual([]);
  });

  it('fails naming the server and the file when one server’s k3s config no longer disables kube-proxy', async () => {
    const original = await lab.repo.readFile(K3S_CONFIG('k3s-dev-2'));
    expect(original).toContain('disable-kube-proxy: true');
    await lab.repo.writeFile(K3S_CONFIG('k3s-dev-2'), original.replace('disable-kube-proxy: true\n', ''));
    try {
      await expectKubeProxyGateToFail(
        'k3s on k3s-dev-2 runs kube-proxy in its server process: /etc/rancher/k3s/config.yaml has no ' +
          'disable-kube-proxy: true and the k3s.service arguments no --disable-kube-proxy',
      );
    } finally {
      await lab.repo.writeFile(K3S_CONFIG('k3s-dev-2'), original);
    }
  });

  it('fails naming the ConfigMap when Cilium runs without kube-proxy replacement', async () => {
    await setKubeProxyReplacement('false');
    try {
      await expectKubeProxyGateToFail(
        'ConfigMap kube-system/cilium-config has kube-proxy-replacement "false": Cilium does not replace ' +
          'kube-proxy (must be "true")',
      );
    } finally {
      await setKubeProxyReplacement('true');
    }
  });
});
