import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from './k8s-types.js';
import { KUBERNETES_YAML, parseYamlDocuments } from './parse-yaml-documents.js';
import { podTemplatesOf } from './pod-templates-of.js';
import { readCompose } from './read-compose.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';
import { splitImage } from './split-image.js';

const IMAGE = 'ghcr.io/homelab/cluster-bot';

async function yamlFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(repoPath(folder), { recursive: true });
  return entries.filter((entry) => /\.ya?ml$/.test(entry)).map((entry) => `${folder}/${entry}`);
}

async function parseFile(relative: string): Promise<unknown[]> {
  return parseYamlDocuments(await readFile(repoPath(relative), 'utf8'), relative, KUBERNETES_YAML);
}

describe('deploy/ layout', () => {
  it('every YAML file under deploy/ and docker-compose.yaml parses, with no duplicate keys', async () => {
    const files = await yamlFilesUnder('deploy');
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) await expect(parseFile(file), file).resolves.not.toHaveLength(0);
    await expect(readCompose()).resolves.toHaveProperty('services');
  });

  it('the base and the homelab overlay build: every resource, generated file and patch target exists', async () => {
    const base = await renderKustomization(repoPath('deploy/base'));
    const homelab = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const names = (objects: K8sObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(names(base.objects)).toEqual([
      'ConfigMap/cluster-bot-config',
      'Deployment/cluster-bot-bot',
      'Deployment/cluster-bot-worker',
      'NetworkPolicy/cluster-bot-bot',
      'NetworkPolicy/cluster-bot-redis',
      'NetworkPolicy/cluster-bot-worker',
      'Service/cluster-bot',
      'Service/cluster-bot-redis',
      'ServiceAccount/cluster-bot',
      'StatefulSet/cluster-bot-redis',
    ]);
    expect(names(homelab.objects)).toEqual(
      [...names(base.objects), 'Ingress/cluster-bot', 'Namespace/cluster-bot'].sort(),
    );
    for (const object of homelab.objects) {
      expect(object.apiVersion, `${object.kind}/${object.metadata.name}`).toMatch(/^([a-z0-9.-]+\/)?v\d/);
    }
  });

  it('no manifest under base/ or overlays/ is left out of a build (an edit there would silently not apply)', async () => {
    const base = await renderKustomization(repoPath('deploy/base'));
    const homelab = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const built = new Set([...base.files, ...homelab.files]);
    const files = [...(await yamlFilesUnder('deploy/base')), ...(await yamlFilesUnder('deploy/overlays'))];
    expect(files.filter((file) => !built.has(repoPath(file)))).toEqual([]);
  });

  it('the homelab overlay puts everything in namespace cluster-bot, which enforces Pod Security "restricted"', async () => {
    const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const namespaced = objects.filter((o) => o.kind !== 'Namespace');
    expect(namespaced.every((o) => o.metadata.namespace === 'cluster-bot')).toBe(true);
    const namespace = objects.find((o) => o.kind === 'Namespace');
    expect(namespace?.metadata.name).toBe('cluster-bot');
    expect(namespace?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('the overlay pins a release of the one image, never :latest', async () => {
    const [kustomization] = (await parseFile('deploy/overlays/homelab/kustomization.yaml')) as {
      images: { name: string; newTag: string }[];
    }[];
    expect(kustomization!.images).toEqual([{ name: IMAGE, newTag: expect.stringMatching(/^\d+\.\d+\.\d+/) }]);
    const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const images = podTemplatesOf(objects)
      .filter(({ owner }) => owner.startsWith('Deployment/'))
      .flatMap(({ spec }) => spec.containers.map((c) => c.image));
    expect(new Set(images)).toEqual(new Set([`${IMAGE}:${kustomization!.images[0]!.newTag}`]));
    expect(images.map((image) => splitImage(image)[1])).not.toContain('latest');
  });

  it('Flux applies the homelab overlay from this repository, pruning, waiting and decrypting SOPS Secrets', async () => {
    const documents = (await parseFile('deploy/flux/kustomization.yaml')) as (K8sObject & {
      spec: Record<string, unknown>;
    })[];
    const source = documents.find((d) => d.kind === 'GitRepository');
    const flux = documents.find((d) => d.kind === 'Kustomization');
    expect(source?.apiVersion).toBe('source.toolkit.fluxcd.io/v1');
    expect(flux?.apiVersion).toBe('kustomize.toolkit.fluxcd.io/v1');
    expect(flux?.spec).toMatchObject({
      path: './deploy/overlays/homelab',
      prune: true,
      wait: true,
      decryption: { provider: 'sops' },
      sourceRef: { kind: 'GitRepository', name: source?.metadata.name },
    });
    const path = String(flux?.spec.path);
    expect((await stat(repoPath(`${path.slice(2)}/kustomization.yaml`))).isFile()).toBe(true);
  });

  it('no two objects share a kind, namespace and name (kubectl would keep only the last)', async () => {
    const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const keys = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
