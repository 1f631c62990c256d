import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { NodeState } from '../ports/kube-gateway.js';
import { captureRemote } from '../remote/capture-remote.js';
import { privileged } from '../remote/node-commands.js';
import { rootWithoutPassword } from '../remote/root-without-password.js';
import { nodeTarget } from '../targets.js';
import {
  K3S_CONFIG_PATH,
  K3S_SERVER_UNIT,
  type K3sKubeProxySetting,
  k3sKubeProxySetting,
} from './k3s-kube-proxy-setting.js';
import { K3S_NODE_ARGS, k3sNodeArgsSetting } from './k3s-node-args-setting.js';

/**
 * How a server's k3s starts, from what k3s records on its Node (no SSH, no root). Only a Node without
 * that record (k3s before v1.21.1) is asked over SSH, for its config file (root only) and its unit's
 * command line, and only where the bot's login gets root without a password.
 */
export async function readK3sKubeProxy(
  ctx: StepContext,
  node: NodeEntry,
  live: NodeState | undefined,
): Promise<K3sKubeProxySetting> {
  if (live?.k3sNodeArgs !== undefined) {
    const setting = k3sNodeArgsSetting(live.k3sNodeArgs);
    if (!setting) {
      throw new ClusterBotError(
        'COMMAND_FAILED',
        `its Node's ${K3S_NODE_ARGS} is not a JSON array of arguments: ${JSON.stringify(live.k3sNodeArgs.slice(0, 80))}`,
      );
    }
    return setting;
  }
  const target = nodeTarget(ctx, node);
  const record = live ? `its Node has no ${K3S_NODE_ARGS}` : 'it has no Node';
  if (!(await rootWithoutPassword(ctx, target))) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `${record}, and reading ${K3S_CONFIG_PATH} needs root, which ${ctx.cluster.nodeSsh.user}@${node.name} gets only with a sudo password the bot does not hold`,
    );
  }
  const file = await captureRemote(ctx, target, privileged(ctx.cluster, ['cat', '--', K3S_CONFIG_PATH]));
  const missing = file.exitCode !== 0 && /No such file or directory/.test(file.stderr);
  if (file.exitCode !== 0 && !missing) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${record}; cannot read ${K3S_CONFIG_PATH} over SSH: ${file.stderr.trim() || `exit ${file.exitCode}`}`,
    );
  }
  const unit = await captureRemote(ctx, target, [
    'systemctl',
    'show',
    '--property=ExecStart',
    '--value',
    K3S_SERVER_UNIT,
  ]);
  if (unit.exitCode !== 0) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${record}; cannot read the ${K3S_SERVER_UNIT} arguments over SSH: ${unit.stderr.trim() || `exit ${unit.exitCode}`}`,
    );
  }
  try {
    return k3sKubeProxySetting(missing ? undefined : file.stdout, unit.stdout);
  } catch (cause) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${K3S_CONFIG_PATH} is not valid YAML: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
}
