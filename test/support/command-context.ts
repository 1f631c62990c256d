import type { CommandContext } from '../../src/commands/verb-handler.js';
import type { ClusterService } from '../../src/service/index.js';
import { loadExampleWorld } from './example-world.js';
import { createFakeClusterService } from './fake-cluster-service.js';

export const ACTOR = { userId: 'U0ALICE', channelId: 'C0OPS' } as const;

/** A verb's context: the example world, Alice in #ops, and a fake service recording what it is asked. */
export async function commandContext(overrides: Partial<ClusterService> = {}) {
  const fake = createFakeClusterService(overrides);
  const context: CommandContext = { actor: ACTOR, service: fake.service, world: await loadExampleWorld() };
  return { context, ...fake };
}
