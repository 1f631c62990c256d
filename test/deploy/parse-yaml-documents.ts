import { type DocumentOptions, type ParseOptions, parseAllDocuments, type SchemaOptions } from 'yaml';

export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/**
 * Every document of a YAML stream, refusing errors, warnings and duplicate keys (which tools
 * disagree on: kubectl keeps the last, some parsers refuse). Empty documents are dropped.
 */
export function parseYamlDocuments(text: string, source: string, options: YamlOptions = {}): unknown[] {
  const documents = parseAllDocuments(text, { uniqueKeys: true, ...options });
  if (!Array.isArray(documents)) throw new Error(`${source}: not a YAML stream`);
  const values: unknown[] = [];
  for (const document of documents) {
    const problems = [...document.errors, ...document.warnings];
    if (problems.length > 0) throw new Error(`${source}: ${problems.map((p) => p.message).join('; ')}`);
    const value: unknown = document.toJS();
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

/**
 * Kubernetes reads manifests as YAML 1.1 (sigs.k8s.io/yaml): an unquoted `yes` is a boolean there
 * and `0440` is octal. Parsing the same way lets the tests see what the API server will see.
 */
export const KUBERNETES_YAML: YamlOptions = { version: '1.1' };
