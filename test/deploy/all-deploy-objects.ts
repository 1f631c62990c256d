import { readdir, readFile } from 'node:fs/promises';
import type { K8sObject } from './k8s-types.js';
import { KUBERNETES_YAML, parseYamlDocuments } from './parse-yaml-documents.js';
import { repoPath } from './repo-path.js';

/**
 * Every object in every YAML file under deploy/, built or not, each with the file it came from: for
 * rules that must hold for anything committed there, not only for what an overlay happens to include.
 */
export async function allDeployObjects(): Promise<{ file: string; object: K8sObject }[]> {
  const files = (await readdir(repoPath('deploy'), { recursive: true })).filter((f) => /\.ya?ml$/.test(f));
  const found: { file: string; object: K8sObject }[] = [];
  for (const file of files) {
    const text = await readFile(repoPath(`deploy/${file}`), 'utf8');
    for (const value of parseYamlDocuments(text, file, KUBERNETES_YAML)) {
      if (typeof value === 'object' && value !== null && 'kind' in value) {
        found.push({ file: `deploy/${file}`, object: value as K8sObject });
      }
    }
  }
  return found;
}
