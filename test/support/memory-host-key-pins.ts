import type { HostKeyPins, KeptHostKey } from '../../src/lifecycle/ports/host-key-pins.js';

/** Host-key pins kept in memory, by cluster then node: what a unit test's runs keep, for it to read. */
export function createMemoryHostKeyPins() {
  const kept = new Map<string, Record<string, KeptHostKey>>();
  const pins: HostKeyPins = {
    read: async (cluster) => ({ ...kept.get(cluster) }),
    async keep(cluster, node, key) {
      kept.set(cluster, { ...kept.get(cluster), [node]: key });
    },
  };
  return { pins, kept: (cluster: string) => ({ ...kept.get(cluster) }) };
}
