import type { ClusterService } from './cluster-service.js';
import type { ServiceDeps } from './service-deps.js';

/** Who watches the App Home, kept where any bot process can refresh it for them. */
export function homeWatchers(
  deps: Pick<ServiceDeps, 'homeWatchList' | 'clock'>,
): Pick<ClusterService, 'watchHome' | 'homeWatchers' | 'markHomeShown'> {
  const list = deps.homeWatchList;
  return {
    watchHome: (userId) => list.watch(userId, deps.clock.now()),
    homeWatchers: (withinMs) => list.watchersSince(deps.clock.now() - withinMs),
    markHomeShown: (userId, hash) => list.markShown(userId, hash),
  };
}
