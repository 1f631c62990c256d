import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { applyJsonPatch, type JsonPatchOperation } from './apply-json-patch.js';
import type { Container, K8sObject } from './k8s-types.js';
import { KUBERNETES_YAML, parseYamlDocuments } from './parse-yaml-documents.js';
import { podTemplatesOf } from './pod-templates-of.js';
import { splitImage } from './split-image.js';

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  configMapGenerator?: {
    name: string;
    files: string[];
    options?: { labels?: Record<string, string>; disableNameSuffixHash?: boolean };
  }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { path: string; target: { group?: string; version?: string; kind: string; name: string } }[];
}

export interface Rendered {
  readonly objects: K8sObject[];
  /** Every file the build read, so tests can spot manifests no kustomization includes. */
  readonly files: Set<string>;
}

const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'configMapGenerator',
  'images',
  'patches',
]);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume']);

/**
 * What `kustomize build <dir>` would output, for the features these manifests use: resources (files
 * and directories), configMapGenerator (without the hash suffix), JSON 6902 patches with a target,
 * images and namespace. A field it does not emulate fails loudly instead of being ignored.
 */
export async function renderKustomization(dir: string): Promise<Rendered> {
  const path = join(dir, 'kustomization.yaml');
  const [document] = parseYamlDocuments(await readFile(path, 'utf8'), path, KUBERNETES_YAML);
  const kustomization = (document ?? {}) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((field) => !SUPPORTED_FIELDS.has(field));
  if (unsupported.length > 0) throw new Error(`${path}: not emulated by the test: ${unsupported.join(', ')}`);
  if (kustomization.kind !== 'Kustomization') throw new Error(`${path}: kind is not Kustomization`);

  const files = new Set([path]);
  const objects: K8sObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const target = resolve(dir, resource);
    const kind = await stat(target).then(
      (s) => (s.isDirectory() ? 'dir' : 'file'),
      () => {
        throw new Error(`${path}: resource ${resource} does not exist`);
      },
    );
    if (kind === 'dir') {
      const nested = await renderKustomization(target);
      objects.push(...nested.objects);
      for (const file of nested.files) files.add(file);
    } else {
      files.add(target);
      objects.push(
        ...(parseYamlDocuments(await readFile(target, 'utf8'), target, KUBERNETES_YAML) as K8sObject[]),
      );
    }
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const entry of generator.files) {
      const [key, source] = entry.includes('=') ? entry.split('=', 2) : [basename(entry), entry];
      const file = resolve(dir, source!);
      files.add(file);
      data[key!] = await readFile(file, 'utf8');
    }
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: generator.name,
        ...(generator.options?.labels && { labels: generator.options.labels }),
      },
      data,
    } as K8sObject);
  }
  for (const patch of kustomization.patches ?? []) {
    const file = resolve(dir, patch.path);
    files.add(file);
    const [operations] = parseYamlDocuments(await readFile(file, 'utf8'), file, KUBERNETES_YAML);
    if (!Array.isArray(operations)) throw new Error(`${file}: only JSON 6902 patches are emulated`);
    const targets = objects.filter((o) => matches(o, patch.target));
    if (targets.length === 0) throw new Error(`${file}: the target matches no resource`);
    for (const object of targets) applyJsonPatch(object, operations as JsonPatchOperation[]);
  }
  for (const image of kustomization.images ?? []) {
    for (const container of containersOf(objects)) {
      const [name, tag] = splitImage(container.image);
      if (name === image.name) container.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
    }
  }
  if (kustomization.namespace) {
    for (const object of objects) {
      if (object.kind === 'Namespace') object.metadata.name = kustomization.namespace;
      else if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
    }
  }
  return { objects, files };
}

function matches(
  object: K8sObject,
  target: { group?: string; version?: string; kind: string; name: string },
) {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  return (
    object.kind === target.kind &&
    object.metadata.name === target.name &&
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version)
  );
}

function containersOf(objects: readonly K8sObject[]): Container[] {
  return podTemplatesOf(objects).flatMap(({ spec }) => [...(spec.initContainers ?? []), ...spec.containers]);
}
