import type { WorldConfig } from '../../src/config/world-config.js';

/** The same world with the node's tofuResource left out: a bare-metal node, reinstalled by hand if at all. */
export function bareMetal(world: WorldConfig, name: string): WorldConfig {
  const dev = world.clusters.dev!;
  const nodes = dev.nodes.map((entry) =>
    entry.name === name ? { ...entry, tofuResource: undefined } : entry,
  );
  return { ...world, clusters: { ...world.clusters, dev: { ...dev, nodes } } };
}
