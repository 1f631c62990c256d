import type { K3sKubeProxySetting } from './k3s-kube-proxy-setting.js';

export const K3S_NODE_ARGS = 'k3s.io/node-args';
const FLAG = '--disable-kube-proxy';
const WHERE = `its Node's ${K3S_NODE_ARGS}`;

/**
 * kube-proxy as k3s records it on its Node: the annotation holds the server's effective arguments
 * (command line and config file), a config `--key=value` split into two entries, so the flag is
 * `--disable-kube-proxy`, optionally followed by `true`/`false`; the last one given wins, as in k3s.
 * Undefined when the annotation is not a JSON array of strings.
 */
export function k3sNodeArgsSetting(annotation: string): K3sKubeProxySetting | undefined {
  let args: unknown;
  try {
    args = JSON.parse(annotation);
  } catch {
    return undefined;
  }
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return undefined;
  let disabled: boolean | undefined;
  for (const [index, arg] of args.entries()) {
    if (arg === FLAG) disabled = args[index + 1] !== 'false';
    else if (arg.startsWith(`${FLAG}=`)) disabled = arg.slice(FLAG.length + 1) !== 'false';
  }
  if (disabled === undefined) return { disabled: false, source: `${WHERE} has no ${FLAG}`, via: 'node-args' };
  return { disabled, source: `${WHERE} (${disabled ? FLAG : `${FLAG} false`})`, via: 'node-args' };
}
