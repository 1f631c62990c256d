import type { NodeEntry } from '../../config/world-config.js';
import type { NodeRootCommand } from '../preconditions/root-for-node-commands.js';
import { snapshotServer } from '../snapshots/snapshot-server.js';

/** What a reprovision of `node` runs as root over the bot's own SSH login, and where. */
export function reprovisionRootCommands(node: NodeEntry): NodeRootCommand[] {
  const itself = async () => node;
  return [
    {
      command: 'k3s etcd-snapshot save',
      why: `the etcd snapshot before ${node.name} is taken away`,
      node: (ctx) => snapshotServer(ctx, node.name),
    },
    { command: 'systemctl stop k3s', why: `so ${node.name} does not re-register its Node`, node: itself },
    ...(node.tofuResource
      ? []
      : [
          {
            command: 'k3s-uninstall.sh',
            why: `clears the old k3s and etcd data of bare-metal ${node.name} before it re-joins`,
            node: itself,
          },
        ]),
  ];
}
