import { parse as parseYaml } from 'yaml';
import { renderTemplate } from './render-template.js';

/** A variable as Ansible would resolve it, and the repo file that set it. */
export interface RepoVar {
  readonly value: unknown;
  readonly file: string;
}

export type RepoVars = ReadonlyMap<string, RepoVar>;

/** One vars file: its path relative to the repo root, and its text (undefined when absent). */
export interface VarsLayer {
  readonly file: string;
  readonly text: string | undefined;
}

/**
 * Lays vars files over each other in Ansible's precedence order (role defaults, then group_vars/all,
 * then the cluster's group): a later file wins. A file that is not a YAML mapping is an error that
 * names it, because guessing would defeat the point of reading the repo.
 */
export function layerVars(layers: readonly VarsLayer[]): RepoVars {
  const vars = new Map<string, RepoVar>();
  for (const layer of layers) {
    if (layer.text === undefined) continue;
    let parsed: unknown;
    try {
      parsed = parseYaml(layer.text);
    } catch (cause) {
      throw new Error(`${layer.file} is not valid YAML: ${(cause as Error).message.split('\n')[0]}`);
    }
    if (parsed === null || parsed === undefined) continue;
    if (typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`${layer.file} is not a mapping`);
    for (const [name, value] of Object.entries(parsed)) vars.set(name, { value, file: layer.file });
  }
  return vars;
}

/**
 * Renders a string var as Ansible would for the cluster (see renderTemplate): references to other
 * string vars and to Ansible's magic variables (`magic`, e.g. playbook_dir) resolve; anything the bot
 * cannot tell is undefined.
 */
export function renderVar(
  vars: RepoVars,
  name: string,
  magic: Readonly<Record<string, string>> = {},
  depth = 0,
): string | undefined {
  const entry = vars.get(name);
  if (typeof entry?.value !== 'string' || depth > 5) return undefined;
  return renderTemplate(entry.value, (inner) =>
    vars.has(inner) ? renderVar(vars, inner, magic, depth + 1) : (magic[inner] ?? null),
  );
}
