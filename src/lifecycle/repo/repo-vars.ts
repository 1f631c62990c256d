import { parse as parseYaml } from 'yaml';

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

const SIMPLE_REFERENCE = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;

/**
 * Renders a string var whose Jinja is only plain `{{ name }}` references to other string vars;
 * anything else (filters, expressions, a missing var) is undefined: the bot cannot tell.
 */
export function renderVar(vars: RepoVars, name: string, depth = 0): string | undefined {
  const entry = vars.get(name);
  if (typeof entry?.value !== 'string' || depth > 5) return undefined;
  let unresolved = false;
  const rendered = entry.value.replace(SIMPLE_REFERENCE, (_match, inner: string) => {
    const value = renderVar(vars, inner, depth + 1);
    if (value === undefined) unresolved = true;
    return value ?? '';
  });
  return unresolved || rendered.includes('{{') || rendered.includes('{%') ? undefined : rendered;
}
