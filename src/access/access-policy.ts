import type { ClusterConfig, WorldConfig } from '../config/world-config.js';

/** Resolves whether a Slack user is in a list of users and user groups, asking Slack for group members. */
export type GroupMembers = (groupId: string) => Promise<readonly string[]>;

export async function isMember(
  userId: string,
  allowed: readonly string[],
  members: GroupMembers,
): Promise<boolean> {
  if (allowed.includes(userId)) return true;
  for (const id of allowed.filter((entry) => entry.startsWith('S'))) {
    if ((await members(id)).includes(userId)) return true;
  }
  return false;
}

export interface AccessRequest {
  readonly userId: string;
  readonly channelId: string;
}

/** Why someone may not run a command here, as facts; the edge chooses the words. */
export type AccessRefusal =
  | {
      readonly code: 'WRONG_CHANNEL';
      readonly channel: string;
      /** Every channel that would do, in config order. */
      readonly allowed: readonly string[];
      readonly cluster?: string | undefined;
    }
  | { readonly code: 'NOT_OPERATOR'; readonly user: string; readonly cluster?: string | undefined };

/**
 * Why this user may not run a command from this channel, or undefined when they may. For a
 * cluster, its own operators and channels decide (by default the global ones); without one (help,
 * status, jobs, audit, plan), being an operator of any cluster in any of its channels will do.
 */
export async function checkAccess(
  world: WorldConfig,
  members: GroupMembers,
  request: AccessRequest,
  cluster?: ClusterConfig,
): Promise<AccessRefusal | undefined> {
  const scopes = cluster ? [cluster] : [world.slack, ...Object.values(world.clusters)];
  const channelLists = scopes.map((scope) => scope.commandChannels);
  if (!channelLists.some((list) => list.length === 0 || list.includes(request.channelId))) {
    const allowed = [...new Set(channelLists.flat())];
    return { code: 'WRONG_CHANNEL', channel: request.channelId, allowed, cluster: cluster?.name };
  }
  const operators = cluster
    ? cluster.operators
    : [...new Set([world.access.operators, ...Object.values(world.clusters).map((c) => c.operators)].flat())];
  if (!(await isMember(request.userId, operators, members))) {
    return { code: 'NOT_OPERATOR', user: request.userId, cluster: cluster?.name };
  }
  return undefined;
}
