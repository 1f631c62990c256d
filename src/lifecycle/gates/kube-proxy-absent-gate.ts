import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { Gate } from './gate.js';
import { K3S_NODE_ARGS } from './k3s-node-args-setting.js';
import { readK3sKubeProxy } from './read-k3s-kube-proxy.js';

const CILIUM_CONFIG = {
  namespace: 'kube-system',
  name: 'cilium-config',
  key: 'kube-proxy-replacement',
} as const;

/**
 * Cilium replaces kube-proxy here. On k3s no DaemonSet shows kube-proxy: it runs inside the server
 * process unless k3s starts with --disable-kube-proxy. So the gate reads how each server's k3s
 * starts (its Node's k3s.io/node-args; over SSH only for a Node without it), asks Cilium whether it
 * replaces kube-proxy (its live ConfigMap), and looks for a kube-proxy DaemonSet or pods.
 */
export const kubeProxyAbsentGate: Gate = {
  name: 'no kube-proxy',
  watches: [],
  async evaluate(ctx) {
    const servers = await k3sServers(ctx);
    const problems = [
      ...(await kubeProxyWorkloads(ctx)),
      ...(await ciliumReplacement(ctx)),
      ...servers.problems,
    ];
    if (problems.length > 0) return { passed: false, observed: problems.join('; ') };
    return {
      passed: true,
      observed:
        `kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on ${servers.names.join(', ')} ` +
        `(${servers.readFrom}), Cilium ${CILIUM_CONFIG.key} true`,
    };
  },
};

async function kubeProxyWorkloads({ kube }: StepContext): Promise<string[]> {
  const daemonSets = await kube.listDaemonSets('kube-system');
  const proxies = daemonSets.filter((ds) => ds.name.includes('kube-proxy'));
  const pods = await kube.listPods({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-proxy' });
  if (proxies.length === 0 && pods.length === 0) return [];
  const found = [
    ...proxies.map((ds) => `DaemonSet ${ds.namespace}/${ds.name}`),
    ...pods.map((p) => `pod ${p.name}`),
  ];
  return [`kube-proxy present: ${found.join(', ')}`];
}

async function ciliumReplacement({ kube }: StepContext): Promise<string[]> {
  const where = `ConfigMap ${CILIUM_CONFIG.namespace}/${CILIUM_CONFIG.name}`;
  const data = await kube.readConfigMap(CILIUM_CONFIG.namespace, CILIUM_CONFIG.name);
  if (!data) return [`${where} not found: cannot tell whether Cilium replaces kube-proxy`];
  const value = data[CILIUM_CONFIG.key];
  if (value === 'true') return [];
  return [
    `${where} has ${CILIUM_CONFIG.key} ${value === undefined ? 'unset' : JSON.stringify(value)}: Cilium does not replace kube-proxy (must be "true")`,
  ];
}

async function k3sServers(ctx: StepContext) {
  const servers = ctx.cluster.nodes.filter((node) => node.roles.includes('server'));
  const live = await ctx.kube.listNodes();
  const answers = await Promise.all(
    servers.map(async (node) => {
      try {
        const setting = await readK3sKubeProxy(
          ctx,
          node,
          live.find((state) => state.name === node.name),
        );
        const problem = setting.disabled
          ? undefined
          : `k3s on ${node.name} runs kube-proxy in its server process: ${setting.source}`;
        return { node: node.name, problem, via: setting.via };
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
        return {
          node: node.name,
          problem: `cannot tell how k3s starts on ${node.name}: ${(error as Error).message}`,
        };
      }
    }),
  );
  const overSsh = answers.filter((answer) => answer.via === 'ssh').map((answer) => answer.node);
  return {
    names: servers.map((node) => node.name),
    problems: answers.map((answer) => answer.problem).filter((problem) => problem !== undefined),
    readFrom:
      overSsh.length === 0
        ? `their Nodes' ${K3S_NODE_ARGS}`
        : overSsh.length === servers.length
          ? 'their k3s config over SSH'
          : `their Nodes' ${K3S_NODE_ARGS}; the k3s config of ${overSsh.join(', ')} over SSH`,
  };
}
