import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { NodeState } from '../ports/kube-gateway.js';
import { groupMembers } from '../repo/parse-inventory.js';
import type { RepoFacts } from '../repo/read-repo-facts.js';
import { askServersForK3s, type ServerAnswers } from './ask-servers-for-k3s.js';

/** Whether k3s.yml would found the cluster, as far as the API and, without it, the servers can tell. */
export type ClusterFormation =
  | { readonly kind: 'formed'; readonly nodes: readonly NodeState[] }
  | { readonly kind: 'first-run' }
  /** The API did not answer and the servers did not prove a first run: some have k3s, or did not say. */
  | { readonly kind: 'unproven'; readonly apiError: string; readonly answers: ServerAnswers };

/**
 * A cluster whose API answers with nodes is formed; one whose API answers with none is not. The API is
 * served on the founder's own address, so a founder wiped outside the bot takes it along while the
 * other servers still hold etcd: then only the servers can say. It is a first run only if every
 * server in hosts.ini answered and none has k3s.
 */
export async function readClusterFormation(
  ctx: StepContext,
  readRepo: () => Promise<RepoFacts>,
): Promise<ClusterFormation> {
  let apiError: string;
  try {
    const nodes = await ctx.kube.listNodes();
    return nodes.length === 0 ? { kind: 'first-run' } : { kind: 'formed', nodes };
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    apiError = (error as Error).message;
  }
  const answers = await askServersForK3s(ctx, inventoryServers(await readRepo()));
  if (answers.withK3s.length === 0 && answers.unanswered.length === 0) return { kind: 'first-run' };
  return { kind: 'unproven', apiError, answers };
}

/** Every server hosts.ini lists for the cluster: the founder first, then its plays' group and k3s_servers_group. */
function inventoryServers(repo: RepoFacts): string[] {
  return [
    ...new Set([
      ...(repo.primary?.members ?? []),
      ...groupMembers(repo.inventory, repo.hostGroup),
      ...(repo.servers?.members ?? []),
    ]),
  ];
}
