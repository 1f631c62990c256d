import type { WorldConfig } from '../config/world-config.js';
import { type GroupMembers, isMember } from './access-policy.js';

/**
 * The clusters this person may operate (each cluster's own operators, users or user groups), in
 * config order: what a read (status, jobs, audit, the App Home) may show, link and list to them.
 */
export async function operableClusters(
  world: WorldConfig,
  members: GroupMembers,
  userId: string,
): Promise<string[]> {
  const clusters = Object.values(world.clusters);
  const operates = await Promise.all(clusters.map((cluster) => isMember(userId, cluster.operators, members)));
  return clusters.filter((_, index) => operates[index]).map((cluster) => cluster.name);
}
