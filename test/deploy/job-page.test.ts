import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readEnv } from '../../src/config/read-env.js';
import { environmentOf } from './environment-of.js';
import { FAKE_SECRETS } from './fake-secrets.js';
import { findObject } from './find-object.js';
import type { IngressObject, ServiceObject, Workload } from './k8s-types.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';

const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
const deployments = ['cluster-bot-bot', 'cluster-bot-worker'].map((name) =>
  findObject<Workload>(objects, 'Deployment', name),
);
const ingress = findObject<IngressObject>(objects, 'Ingress', 'cluster-bot');
const service = findObject<ServiceObject>(objects, 'Service', 'cluster-bot');
const envOf = (workload: Workload) =>
  readEnv(environmentOf(workload.spec.template.spec.containers[0]!, FAKE_SECRETS));

/** `256Mi`, `1Gi` in megabytes (MiB, as JOB_LOGS_MAX_MB counts them). */
function megabytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected quantity ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

describe('the job page as deployed', () => {
  it('is on in both roles, at the Ingress host over https, with links keyed from the Slack Secret', () => {
    const [host] = ingress.spec.rules.map((rule) => rule.host);
    for (const workload of deployments) {
      const env = envOf(workload);
      expect(env.PUBLIC_URL, workload.metadata.name).toBe(`https://${host}`);
      expect(env.JOB_PAGE_SECRET, workload.metadata.name).toBe(
        FAKE_SECRETS['cluster-bot-slack/job-page-secret'],
      );
    }
  });

  it('the Ingress terminates TLS for its host and sends the page, its assets and Slack to the bot Service', () => {
    for (const rule of ingress.spec.rules) {
      expect(ingress.spec.tls?.flatMap((tls) => tls.hosts)).toContain(rule.host);
      expect(rule.http.paths.map((path) => path.path).sort()).toEqual([
        '/assets/',
        '/jobs/',
        '/slack/events',
      ]);
      for (const { backend } of rule.http.paths) {
        expect(backend.service.name).toBe(service.metadata.name);
        expect(service.spec.ports.map((port) => port.name)).toContain(backend.service.port.name);
      }
    }
  });

  it('every listener binds all interfaces in the pods (the product binds loopback unless told)', () => {
    for (const workload of deployments) expect(envOf(workload).HOST, workload.metadata.name).toBe('0.0.0.0');
  });

  it('keeps the job logs below the data volume, so the bot prunes before the kubelet evicts the pod', () => {
    for (const workload of deployments) {
      const spec = workload.spec.template.spec;
      const env = envOf(workload);
      const mount = spec.containers[0]!.volumeMounts?.find((m) => m.mountPath === env.DATA_DIR);
      const limit = spec.volumes?.find((v) => v.name === mount?.name)?.emptyDir?.sizeLimit;
      expect(limit, workload.metadata.name).toBeDefined();
      expect(env.JOB_LOGS_MAX_MB, workload.metadata.name).toBeLessThan(megabytes(limit!));
    }
  });

  it('the README and the manifests say the namespace comes before the Secrets, and how to make the page key', async () => {
    const guide = await readFile(repoPath('deploy/README.md'), 'utf8');
    const namespace = guide.indexOf('kubectl apply -f deploy/overlays/homelab/namespace.yaml');
    expect(namespace).toBeGreaterThan(-1);
    expect(guide.indexOf('create secret generic cluster-bot-slack')).toBeGreaterThan(namespace);
    expect(guide).toContain('--from-literal=job-page-secret="$(openssl rand -hex 32)"');
  });
});
