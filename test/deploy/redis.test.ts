import { describe, expect, it } from 'vitest';
import { findObject } from './find-object.js';
import type { Container, ServiceObject, Workload } from './k8s-types.js';
import { readCompose } from './read-compose.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';
import { selectorMatches } from './selector-matches.js';

const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
const redis = findObject<Workload>(objects, 'StatefulSet', 'cluster-bot-redis');
const compose = await readCompose();

/** `redis-server --key value ...` as a map of settings. */
function redisSettings(argv: readonly unknown[]): Map<string, string> {
  const args = argv.map(String);
  expect(args[0]).toBe('redis-server');
  const settings = new Map<string, string>();
  for (let i = 1; i < args.length; i += 2) settings.set(args[i]!.replace(/^--/, ''), args[i + 1]!);
  return settings;
}

/** `384mb`, `1gb`, `512Mi`... in bytes. */
function bytes(size: string): number {
  const match = /^(\d+)\s*([kmg]i?b?)?$/i.exec(size);
  if (!match) throw new Error(`not a size: ${size}`);
  const unit = (match[2] ?? '').toLowerCase().replace(/b$/, '');
  const power = { '': 0, k: 1, m: 2, g: 3, ki: 1, mi: 2, gi: 3 }[unit] ?? Number.NaN;
  return Number(match[1]) * 1024 ** power;
}

describe('Redis for BullMQ', () => {
  const container = redis.spec.template.spec.containers[0] as Container;
  const settings = redisSettings([...(container.command ?? []), ...(container.args ?? [])]);

  it('in Kubernetes: AOF persistence and noeviction, so a restart or a full memory loses no job', () => {
    expect(settings.get('appendonly')).toBe('yes');
    expect(settings.get('maxmemory-policy')).toBe('noeviction');
  });

  it('refuses writes (maxmemory) before the container limit would OOM-kill it', () => {
    expect(bytes(settings.get('maxmemory')!)).toBeLessThan(bytes(container.resources!.limits!.memory!));
  });

  it('keeps its data on a PersistentVolumeClaim mounted where Redis writes', () => {
    const [claim] = redis.spec.volumeClaimTemplates ?? [];
    const mount = container.volumeMounts?.find((m) => m.name === claim?.metadata.name);
    expect(claim?.spec.resources.requests.storage).toMatch(/^\d+[MG]i$/);
    expect(mount?.mountPath).toBe(settings.get('dir') ?? '/data');
    expect(redis.spec.replicas).toBe(1);
  });

  it('is reached through its headless Service, the host and port of the bot and worker REDIS_URL', () => {
    const service = findObject<ServiceObject>(objects, 'Service', redis.spec.serviceName!);
    expect(service.spec.clusterIP).toBe('None');
    expect(selectorMatches({ matchLabels: service.spec.selector }, redis.spec.template.metadata.labels)).toBe(
      true,
    );
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      const app = findObject<Workload>(objects, 'Deployment', name).spec.template.spec.containers[0]!;
      const url = new URL(String(app.env?.find((v) => v.name === 'REDIS_URL')?.value));
      expect(url.hostname, name).toBe(service.metadata.name);
      expect(Number(url.port), name).toBe(service.spec.ports[0]!.port);
    }
  });

  it('in compose: the same settings, data on a named volume, and REDIS_URL naming the redis service', () => {
    const service = compose.services.redis!;
    const composed = redisSettings(service.command ?? []);
    expect(composed.get('appendonly')).toBe('yes');
    expect(composed.get('maxmemory-policy')).toBe('noeviction');
    const dataVolume = service.volumes?.find((v) => v.endsWith(':/data'))?.split(':')[0];
    expect(Object.keys(compose.volumes ?? {})).toContain(dataVolume);
    for (const name of ['bot', 'worker']) {
      const url = String(compose.services[name]?.environment?.REDIS_URL);
      expect(url).toBe(`rediss://:\${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}@redis:6379`);
    }
    expect(service.image?.split(':')[0]).toBe(container.image.split(':')[0]);
  });
});

describe('Redis behind TLS and a password', () => {
  const container = redis.spec.template.spec.containers[0] as Container;
  const settings = redisSettings([...(container.command ?? []), ...(container.args ?? [])]);
  const secretVolume = (name: string | undefined) =>
    redis.spec.template.spec.volumes?.find((volume) => volume.name === name)?.secret;

  it('in Kubernetes: TLS only (no plain port), its certificate, key and CA and its password from Secret cluster-bot-redis', () => {
    expect(settings.get('port')).toBe('0');
    expect(settings.get('tls-port')).toBe('6379');
    for (const file of ['tls-cert-file', 'tls-key-file', 'tls-ca-cert-file']) {
      const path = settings.get(file)!;
      const mount = container.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
      expect(secretVolume(mount?.name)?.secretName, file).toBe('cluster-bot-redis');
      expect(mount?.readOnly, file).toBe(true);
    }
    expect(settings.get('requirepass')).toBe('$(REDIS_PASSWORD)');
    const password = container.env?.find((v) => v.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef;
    expect(password).toEqual({ name: 'cluster-bot-redis', key: 'password' });
  });

  it('bot and worker connect with rediss://, that password and the CA mounted from the same Secret', () => {
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      const workload = findObject<Workload>(objects, 'Deployment', name);
      const app = workload.spec.template.spec.containers[0]!;
      const env = (key: string) => app.env?.find((v) => v.name === key);
      expect(env('REDIS_URL')?.value, name).toBe('rediss://:$(REDIS_PASSWORD)@cluster-bot-redis:6379');
      expect(env('REDIS_PASSWORD')?.valueFrom?.secretKeyRef, name).toEqual({
        name: 'cluster-bot-redis',
        key: 'password',
      });
      // Declared before REDIS_URL: the kubelet expands $(NAME) only from variables above it.
      const names = (app.env ?? []).map((v) => v.name);
      expect(names.indexOf('REDIS_PASSWORD'), name).toBeLessThan(names.indexOf('REDIS_URL'));
      const ca = String(env('REDIS_CA_FILE')?.value);
      const mount = app.volumeMounts?.find((m) => ca === `${m.mountPath}/ca.crt`);
      const volume = workload.spec.template.spec.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.secret?.secretName, name).toBe('cluster-bot-redis');
    }
  });

  it('in compose: the same TLS settings and password, the certificate files from ./secrets/redis', () => {
    const service = compose.services.redis!;
    const composed = redisSettings(service.command ?? []);
    for (const key of [
      'port',
      'tls-port',
      'tls-cert-file',
      'tls-key-file',
      'tls-ca-cert-file',
      'tls-auth-clients',
    ])
      expect(composed.get(key), key).toBe(settings.get(key));
    expect(composed.get('requirepass')).toBe(`\${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}`);
    expect(service.volumes).toContain('./secrets/redis:/tls:ro');
    for (const name of ['bot', 'worker'])
      expect(compose.services[name]?.environment?.REDIS_CA_FILE, name).toBe('/run/secrets/redis/ca.crt');
  });
});
