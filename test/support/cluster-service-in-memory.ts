import type { WorldConfig } from '../../src/config/world-config.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createClusterService } from '../../src/service/index.js';
import { createInstantClock } from './manual-clock.js';
import { createMemoryServiceStores } from './memory-service-stores.js';

export interface ServiceInMemoryOptions {
  readonly groups?: ReadonlyMap<string, readonly string[]>;
  readonly perMinute?: number;
  /** The clock's time at the start; it moves only when the test advances it. */
  readonly startAt?: number;
}

/**
 * The real service on in-memory stores (no Redis, no worker: jobs stay queued), with the stores for
 * a test to arrange and inspect, and a clock the test moves (its sleeps pass at once).
 */
export function startServiceInMemory(world: WorldConfig, options: ServiceInMemoryOptions = {}) {
  const clock = createInstantClock(options.startAt);
  const stores = createMemoryServiceStores({
    now: clock.now,
    perMinute: options.perMinute ?? 1_000,
    alertsChannel: world.slack.alertsChannel,
  });
  const metrics = createMetrics();
  const service = createClusterService({
    ...stores.ports,
    world,
    metrics,
    members: async (groupId) => options.groups?.get(groupId) ?? [],
    clock,
  });
  return { ...stores, service, metrics, clock };
}
