import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { allDeployObjects } from './all-deploy-objects.js';
import { findObject } from './find-object.js';
import type { K8sObject, SecretObject } from './k8s-types.js';
import { podTemplatesOf } from './pod-templates-of.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';

const everything = await allDeployObjects();
const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));

/** Secret name → the keys pods read from it (env secretKeyRef), or undefined for a whole-Secret volume. */
function referencedSecrets(rendered: readonly K8sObject[]): Map<string, Set<string>> {
  const secrets = new Map<string, Set<string>>();
  for (const { spec } of podTemplatesOf(rendered)) {
    for (const volume of spec.volumes ?? []) {
      if (volume.secret)
        secrets.set(volume.secret.secretName, secrets.get(volume.secret.secretName) ?? new Set());
    }
    for (const variable of spec.containers.flatMap((c) => c.env ?? [])) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref) secrets.set(ref.name, (secrets.get(ref.name) ?? new Set()).add(ref.key));
    }
  }
  return secrets;
}

describe('secrets', () => {
  it('no Secret under deploy/ carries a value in clear: only SOPS-encrypted ones may be committed', () => {
    for (const { file, object } of everything.filter((e) => e.object.kind === 'Secret')) {
      const secret = object as SecretObject;
      const values = Object.values({ ...secret.data, ...secret.stringData });
      expect(secret.sops, `${file}: not SOPS-encrypted`).toBeDefined();
      for (const value of values) expect(value, file).toMatch(/^ENC\[/);
    }
  });

  it('pods reference exactly the four documented Secrets, and deploy/README.md names each Secret and key', async () => {
    const secrets = referencedSecrets(objects);
    expect([...secrets.keys()].sort()).toEqual([
      'cluster-bot-kubeconfigs',
      'cluster-bot-redis',
      'cluster-bot-slack',
      'cluster-bot-ssh',
    ]);
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const readme = await readFile(repoPath('deploy/README.md'), 'utf8');
    for (const [name, keys] of secrets) {
      expect(readme, name).toContain(`\`${name}\``);
      for (const key of keys) expect(readme, `${name}/${key}`).toContain(`\`${key}\``);
    }
  });
});

describe('access to Kubernetes', () => {
  it('no Role, ClusterRole or binding exists: the bot uses its own kubeconfigs, not the cluster it runs in', () => {
    const rbac = everything.filter(({ object }) => /^(Cluster)?Role(Binding)?$/.test(object.kind));
    expect(rbac.map(({ file, object }) => `${file}: ${object.kind}/${object.metadata.name}`)).toEqual([]);
  });

  it('the ServiceAccount every pod uses mounts no API token', () => {
    const account = findObject<K8sObject & { automountServiceAccountToken?: boolean }>(
      objects,
      'ServiceAccount',
      'cluster-bot',
    );
    expect(account.automountServiceAccountToken).toBe(false);
    for (const { owner, spec } of podTemplatesOf(objects))
      expect(spec.serviceAccountName, owner).toBe('cluster-bot');
  });
});
