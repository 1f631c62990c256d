import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../steps/capture-remote.js';
import { privileged } from '../steps/node-commands.js';
import { hostKeyFactKey, nodeTarget } from '../targets.js';
import {
  K3S_CONFIG_PATH,
  K3S_SERVER_UNIT,
  type K3sKubeProxySetting,
  k3sKubeProxySetting,
} from './k3s-kube-proxy-setting.js';

/** Reads a server's k3s config file (root only) and its unit's command line over SSH. */
export async function readK3sKubeProxy(ctx: StepContext, node: NodeEntry): Promise<K3sKubeProxySetting> {
  const target = nodeTarget(ctx.cluster, node, ctx.facts.get<string>(hostKeyFactKey(node.name)));
  const file = await captureRemote(ctx, target, privileged(ctx.cluster, ['cat', '--', K3S_CONFIG_PATH]));
  const missing = file.exitCode !== 0 && /No such file or directory/.test(file.stderr);
  if (file.exitCode !== 0 && !missing) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `cannot read ${K3S_CONFIG_PATH}: ${file.stderr.trim() || `exit ${file.exitCode}`}`,
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
      `cannot read the ${K3S_SERVER_UNIT} arguments: ${unit.stderr.trim() || `exit ${unit.exitCode}`}`,
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
