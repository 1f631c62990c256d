import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorldConfig } from '../../src/config/load-world-config.js';
import { readEnv } from '../../src/config/read-env.js';
import { expandedNames } from './environment-of.js';
import { findObject } from './find-object.js';
import type { Workload } from './k8s-types.js';
import { type ComposeService, composeEnvironment, readCompose } from './read-compose.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';

const compose = await readCompose();
const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
const deployment = (name: string) =>
  findObject<Workload>(objects, 'Deployment', name).spec.template.spec.containers[0]!;
const apps = { bot: compose.services.bot!, worker: compose.services.worker! };
const FAKE_DOT_ENV = {
  SLACK_BOT_TOKEN: 'xoxb-0-fake',
  SLACK_APP_TOKEN: 'xapp-0-fake',
  REDIS_PASSWORD: '0123456789abcdef0123456789abcdef',
};

/** `source:target[:mode]` volume entries as objects. */
function mountsOf(service: ComposeService) {
  return (service.volumes ?? []).map((entry) => {
    const [source, target, mode] = entry.split(':');
    return { source: source!, target: target!, readOnly: mode === 'ro' };
  });
}

describe('docker-compose.yaml (one box)', () => {
  it('runs a bot, a worker and Redis, each app service in its role', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['bot', 'redis', 'worker']);
    expect(apps.bot.environment?.CLUSTER_BOT_ROLE).toBe('bot');
    expect(apps.worker.environment?.CLUSTER_BOT_ROLE).toBe('worker');
    expect(apps.bot.ports).toEqual([`127.0.0.1:${apps.bot.environment?.PORT}:${apps.bot.environment?.PORT}`]);
    expect(apps.worker.ports).toBeUndefined();
  });

  it('runs the same image and release as the Kubernetes overlay, built from the Dockerfile runtime stage', async () => {
    for (const service of Object.values(apps)) {
      expect(service.image).toBe(deployment('cluster-bot-bot').image);
      expect(service.build).toEqual({ context: '.', target: 'runtime' });
    }
    const dockerfile = await readFile(repoPath('Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM \S+ AS runtime$/m);
  });

  it('sets the same environment variables as the Deployments, all accepted by readEnv once .env is filled in', () => {
    // Kubernetes declares the Redis password to expand it into REDIS_URL; compose takes it from .env.
    for (const [role, service] of Object.entries(apps)) {
      const expanded = expandedNames(deployment(`cluster-bot-${role}`));
      const kubernetesNames = (deployment(`cluster-bot-${role}`).env ?? [])
        .map((v) => v.name)
        .filter((name) => !expanded.has(name))
        .sort();
      expect(Object.keys(service.environment ?? {}).sort(), role).toEqual(kubernetesNames);
      const environment = composeEnvironment(service, FAKE_DOT_ENV);
      const parsed = readEnv(environment);
      for (const name of Object.keys(environment)) expect(parsed, name).toHaveProperty(name);
      expect(parsed.CLUSTER_BOT_ROLE).toBe(role);
      // Only the process taking Slack's requests gets the app token; the worker never sees it.
      expect(parsed.SLACK_APP_TOKEN).toBe(role === 'bot' ? FAKE_DOT_ENV.SLACK_APP_TOKEN : undefined);
    }
  });

  it('refuses to start without SLACK_BOT_TOKEN or REDIS_PASSWORD in .env', () => {
    expect(() => composeEnvironment(apps.bot, {})).toThrow(/SLACK_BOT_TOKEN/);
    const { REDIS_PASSWORD: _, ...noPassword } = FAKE_DOT_ENV;
    expect(() => composeEnvironment(apps.bot, noPassword)).toThrow(/set REDIS_PASSWORD in \.env/);
    expect(() => composeEnvironment(compose.services.redis!, noPassword)).toThrow(
      /set REDIS_PASSWORD in \.env/,
    );
  });

  it('hardens the app containers: read-only root, ALL capabilities dropped, no new privileges, tmpfs /tmp', () => {
    for (const [role, service] of Object.entries(apps)) {
      expect(service.read_only, role).toBe(true);
      expect(service.cap_drop, role).toEqual(['ALL']);
      expect(service.security_opt, role).toContain('no-new-privileges:true');
      expect(
        service.tmpfs?.some((t) => t.startsWith('/tmp')),
        role,
      ).toBe(true);
      expect(service.privileged ?? false, role).toBe(false);
      expect(service.user, role).toBeUndefined(); // the image's uid 10001
      const dataDir = String(service.environment?.DATA_DIR);
      const data = mountsOf(service).find((m) => m.target === dataDir);
      expect(Object.keys(compose.volumes ?? {}), `${role} ${dataDir}`).toContain(data?.source);
    }
  });

  it('mounts the world YAML the Kubernetes base deploys, read-only, where CLUSTER_BOT_CONFIG points', () => {
    for (const [role, service] of Object.entries(apps)) {
      const config = mountsOf(service).find((m) => m.target === service.environment?.CLUSTER_BOT_CONFIG);
      expect(config, role).toEqual({
        source: './deploy/base/config.yaml',
        target: expect.any(String),
        readOnly: true,
      });
    }
  });

  it("gives the worker every key and kubeconfig the world names, read-only from ./secrets; the bot only Redis's CA", async () => {
    const world = parseWorldConfig(await readFile(repoPath('deploy/base/config.yaml'), 'utf8'));
    const paths = [
      world.ops.privateKeyPath,
      world.ops.knownHostsPath,
      ...Object.values(world.clusters).flatMap((c) => [
        c.kubeconfigPath,
        c.nodeSsh.privateKeyPath,
        c.nodeSsh.knownHostsPath,
      ]),
    ];
    for (const path of paths) {
      const mount = mountsOf(apps.worker).find((m) => m.target === dirname(path));
      expect(mount?.source, path).toMatch(/^\.\/secrets\//);
      expect(mount?.readOnly, path).toBe(true);
    }
    // Of ./secrets the bot reads only Redis's CA.
    expect(mountsOf(apps.bot).filter((m) => m.source.startsWith('./secrets'))).toEqual([
      { source: './secrets/redis/ca.crt', target: apps.bot.environment?.REDIS_CA_FILE, readOnly: true },
    ]);
  });

  it('health-checks the apps on /healthz at the unpublished OPS_PORT and Redis with a ping; the apps wait for a healthy Redis', () => {
    for (const [role, service] of Object.entries(apps)) {
      expect(service.environment?.OPS_PORT, role).toBe('9090');
      expect(service.healthcheck?.test.join(' '), role).toContain(
        `http://127.0.0.1:${service.environment?.OPS_PORT}/healthz`,
      );
      expect(service.ports?.join(' ') ?? '', role).not.toContain(String(service.environment?.OPS_PORT));
      expect(service.depends_on, role).toEqual({ redis: { condition: 'service_healthy' } });
    }
    // Over TLS, the password from REDISCLI_AUTH (never in the probe's argv).
    expect(compose.services.redis?.healthcheck?.test).toEqual([
      'CMD',
      'redis-cli',
      '--tls',
      '--cacert',
      '/tls/ca.crt',
      '--sni',
      'redis',
      'ping',
    ]);
    expect(compose.services.redis?.environment?.REDISCLI_AUTH).toBe(
      `\${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}`,
    );
  });
});
