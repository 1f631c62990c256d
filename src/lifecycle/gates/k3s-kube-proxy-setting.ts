import { parse as parseYaml } from 'yaml';

export const K3S_CONFIG_PATH = '/etc/rancher/k3s/config.yaml';
export const K3S_SERVER_UNIT = 'k3s.service';

export interface K3sKubeProxySetting {
  /** True when this k3s server starts without its built-in kube-proxy. */
  readonly disabled: boolean;
  /** Where that was read, in words an operator can go and check. */
  readonly source: string;
  /** Read from the Node's k3s.io/node-args through the API, or from the node itself over SSH. */
  readonly via: 'node-args' | 'ssh';
}

const FLAG = '--disable-kube-proxy';
const KEY = 'disable-kube-proxy';

/**
 * k3s runs kube-proxy inside its server process unless started with --disable-kube-proxy, given on
 * the unit's command line or as `disable-kube-proxy: true` in its config file; the command line wins
 * over the file, as in k3s. `execStart` is systemd's ExecStart of the unit (`argv[]=... ;`).
 */
export function k3sKubeProxySetting(config: string | undefined, execStart: string): K3sKubeProxySetting {
  const flag = flagValue(execStart);
  if (flag !== undefined) {
    return {
      disabled: flag,
      source: `the ${K3S_SERVER_UNIT} arguments (${flag ? FLAG : `${FLAG}=false`})`,
      via: 'ssh',
    };
  }
  const value = configValue(config);
  if (value === undefined) {
    return {
      disabled: false,
      source: `${K3S_CONFIG_PATH} has no ${KEY}: true and the ${K3S_SERVER_UNIT} arguments no ${FLAG}`,
      via: 'ssh',
    };
  }
  return { disabled: value, source: `${K3S_CONFIG_PATH} (${KEY}: ${value})`, via: 'ssh' };
}

function flagValue(execStart: string): boolean | undefined {
  const argv = /argv\[\]=([^;]*)/.exec(execStart)?.[1] ?? execStart;
  let found: boolean | undefined;
  for (const token of argv.trim().split(/\s+/)) {
    if (token === FLAG) found = true;
    else if (token.startsWith(`${FLAG}=`)) found = token.slice(FLAG.length + 1) === 'true';
  }
  return found;
}

function configValue(config: string | undefined): boolean | undefined {
  if (config === undefined) return undefined;
  const document: unknown = parseYaml(config);
  if (document === null || typeof document !== 'object') return undefined;
  const value = (document as Record<string, unknown>)[KEY];
  if (value === undefined) return undefined;
  return value === true || value === 'true';
}
