import type { HomeWatchList } from '../../src/service/ports/home-watch-list.js';

/** Who watches the App Home and what each was last shown, in memory. */
export function createMemoryHomeWatchList() {
  const watched = new Map<string, number>();
  const shown = new Map<string, string>();
  const list: HomeWatchList = {
    async watch(userId, at) {
      watched.set(userId, at);
    },
    async watchersSince(since) {
      for (const [userId, at] of watched) {
        if (at >= since) continue;
        watched.delete(userId);
        shown.delete(userId);
      }
      return [...watched].sort(([u, a], [v, b]) => a - b || (u < v ? -1 : 1)).map(([userId]) => userId);
    },
    async markShown(userId, hash) {
      if (shown.get(userId) === hash) return false;
      shown.set(userId, hash);
      return true;
    },
  };
  return { list };
}
