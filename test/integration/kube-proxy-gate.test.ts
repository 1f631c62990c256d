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

const NODE_ARGS = 'k3s.io/node-args';

async function readNodeArgs(): Promise<string | undefined> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(lab.sim.kubeconfig);
  const node = await kubeConfig.makeApiClient(CoreV1Api).readNode({ name: 'k3s-dev-2' });
  return node.metadata?.annotations?.[NODE_ARGS];
}

/** What k3s records on k3s-dev-2's Node as its effective arguments (null: k3s before v1.21.1 records none). */
async function setNodeArgs(value: string | null): Promise<void> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(lab.sim.kubeconfig);
  await kubeConfig
    .makeApiClient(CoreV1Api)
    .patchNode(
      { name: 'k3s-dev-2', body: { metadata: { annotations: { [NODE_ARGS]: value } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
}

describe('the kube-proxy gate on k3s: each server started without kube-proxy, Cilium replacing it', {
  timeout: LAB_TEST_TIMEOUT_MS,
}, () => {
  it('passes on the formed lab cluster, having read how k3s starts from each Node: no SSH, no root for it', async () => {
    const before = (await lab.nodes.commands()).length;
    const { result, kubeProxy } = await verifyDev();
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(kubeProxy).toBe(
      '✓ no kube-proxy: kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on ' +
        `k3s-dev-1, k3s-dev-2, k3s-dev-3 (their Nodes' ${NODE_ARGS}), Cilium kube-proxy-replacement true`,
    );
    // The kube-proxy gate ran nothing on a node; the one command is the backup gate's snapshot list.
    expect((await lab.nodes.commands()).slice(before)).toEqual(['k3s etcd-snapshot ls']);
  });

  it('fails naming the server when k3s records that it starts without --disable-kube-proxy', async () => {
    const original = await readNodeArgs();
    expect(original).toContain('--disable-kube-proxy');
    await setNodeArgs('["server","--flannel-backend","none","--disable-network-policy"]');
    try {
      await expectKubeProxyGateToFail(
        `k3s on k3s-dev-2 runs kube-proxy in its server process: its Node's ${NODE_ARGS} has no --disable-kube-proxy`,
      );
    } finally {
      await setNodeArgs(original ?? null);
    }
  });

  it('a Node without the record is read over SSH as root (its config file and unit), and a config without the key fails', async () => {
    const original = await readNodeArgs();
    await setNodeArgs(null);
    const config = await lab.repo.readFile(K3S_CONFIG('k3s-dev-2'));
    try {
      const { result, kubeProxy } = await verifyDev();
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(kubeProxy).toContain(`(their Nodes' ${NODE_ARGS}; the k3s config of k3s-dev-2 over SSH)`);
      const commands = await lab.nodes.commands();
      expect(commands.filter((line) => line === 'cat -- /etc/rancher/k3s/config.yaml')).toHaveLength(1);
      expect(commands).toContain('systemctl show --property=ExecStart --value k3s.service');
      expect(commands.filter((line) => line.includes('sudo'))).toEqual([]);

      await lab.repo.writeFile(K3S_CONFIG('k3s-dev-2'), config.replace('disable-kube-proxy: true\n', ''));
      await expectKubeProxyGateToFail(
        'k3s on k3s-dev-2 runs kube-proxy in its server process: /etc/rancher/k3s/config.yaml has no ' +
          'disable-kube-proxy: true and the k3s.service arguments no --disable-kube-proxy',
      );
    } finally {
      await lab.repo.writeFile(K3S_CONFIG('k3s-dev-2'), config);
      await setNodeArgs(original ?? null);
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
