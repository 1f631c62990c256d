import { parse as parseYaml } from 'yaml';

/** The two spellings of "the k3s API host": Flux's substitution and the Ansible template's. */
export const API_HOST_SYMBOL = '<k3s API host>';
const FLUX_API_HOST = /^\$\{K3S_API_HOST\}$/;
const JINJA_API_HOST = /^\{\{\s*k3s_api_host\s*\}\}$/;

export type ValuesSource = 'helmrelease' | 'template' | 'reference';

/** Parses one of the three files into its Helm values. The template's Jinja is kept as text. */
export function readCiliumValues(source: ValuesSource, text: string): Record<string, unknown> {
  if (source === 'template') {
    const yamlSafe = text
      .split('\n')
      .filter((line) => !/^\s*\{%.*%\}\s*$/.test(line))
      .map((line) =>
        line.replace(
          /(:\s*)(\{\{[^}]*\}\})(\s*(?:#.*)?)$/,
          (_m, sep: string, expr: string, rest: string) => `${sep}"${expr}"${rest}`,
        ),
      )
      .join('\n');
    return asRecord(parseYaml(yamlSafe));
  }
  const document = asRecord(parseYaml(text));
  if (source === 'helmrelease') return asRecord(asRecord(document.spec).values);
  return document;
}

export function valueAt(values: Record<string, unknown>, path: string): unknown {
  let current: unknown = values;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function normaliseApiHost(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return FLUX_API_HOST.test(value.trim()) || JINJA_API_HOST.test(value.trim()) ? API_HOST_SYMBOL : value;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
