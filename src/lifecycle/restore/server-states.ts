import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { NodeState } from '../ports/kube-gateway.js';
import { dbAside, K3S_DB_DIR, serversOf } from './restore-facts.js';
import { folderThere, k3sActive } from './server-commands.js';

/**
 * What each server is now, as an operator taking over by hand needs it: k3s running or not, its
 * etcd data in place or moved aside by this job, and whether the API lists it as an etcd member.
 * Whatever cannot be read says why, so one broken server does not hide the others.
 */
export async function describeServerStates(ctx: StepContext): Promise<string[]> {
  const nodes = await ctx.kube.listNodes().catch((error: unknown) => {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return `the Kubernetes API does not answer (${(error as Error).message})`;
  });
  const lines: string[] = [];
  for (const server of serversOf(ctx)) {
    const facts = await Promise.all([
      read(async () => ((await k3sActive(ctx, server)) ? 'k3s active' : 'k3s stopped')),
      read(async () =>
        (await folderThere(ctx, server, K3S_DB_DIR)) ? 'server/db in place' : 'no server/db',
      ),
      read(async () =>
        (await folderThere(ctx, server, dbAside(ctx)))
          ? `old data kept in ${dbAside(ctx)}`
          : 'nothing moved aside',
      ),
    ]);
    lines.push(`${server.name}: ${[...facts, membership(nodes, server.name)].join(' · ')}`);
  }
  return lines;
}

async function read(fact: () => Promise<string>): Promise<string> {
  try {
    return await fact();
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return `unknown (${(error as Error).message})`;
  }
}

function membership(nodes: readonly NodeState[] | string, name: string): string {
  if (typeof nodes === 'string') return `membership unknown: ${nodes}`;
  const node = nodes.find((candidate) => candidate.name === name);
  if (!node) return 'not registered in the API';
  return `${node.etcd ? 'etcd member' : 'not an etcd member'}, ${node.ready ? 'Ready' : 'NotReady'}`;
}
