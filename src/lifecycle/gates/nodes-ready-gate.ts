import type { Gate } from './gate.js';

export const nodesReadyGate: Gate = {
  name: 'nodes Ready',
  watches: [{ kind: 'nodes' }],
  async evaluate({ kube, cluster }) {
    const nodes = await kube.listNodes();
    const problems: string[] = [];
    for (const expected of cluster.nodes) {
      const node = nodes.find((candidate) => candidate.name === expected.name);
      if (!node) problems.push(`${expected.name} is not registered`);
      else if (!node.ready)
        problems.push(`${node.name} NotReady${node.readyReason ? ` (${node.readyReason})` : ''}`);
    }
    const ready = nodes.filter((node) => node.ready).length;
    return problems.length === 0
      ? { passed: true, observed: `${ready}/${cluster.nodes.length} nodes Ready` }
      : { passed: false, observed: problems.join('; ') };
  },
};
