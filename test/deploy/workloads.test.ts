import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorldConfig } from '../../src/config/load-world-config.js';
import { readEnv } from '../../src/config/read-env.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { environmentOf, expandedNames } from './environment-of.js';
import { FAKE_SECRETS } from './fake-secrets.js';
import { findObject } from './find-object.js';
import type { Container, K8sObject, PodSpec, ServiceObject, Workload } from './k8s-types.js';
import { podTemplatesOf } from './pod-templates-of.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';
import { selectorMatches } from './selector-matches.js';

const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
const bot = findObject<Workload>(objects, 'Deployment', 'cluster-bot-bot');
const worker = findObject<Workload>(objects, 'Deployment', 'cluster-bot-worker');

function appContainer(workload: Workload): Container {
  const [container, ...others] = workload.spec.template.spec.containers;
  expect(others, `${workload.metadata.name} runs one container`).toEqual([]);
  return container!;
}

function envValue(container: Container, name: string): string | undefined {
  const variable = container.env?.find((v) => v.name === name);
  return variable?.value === undefined ? undefined : String(variable.value);
}

function mountedVolume(spec: PodSpec, container: Container, mountPath: string) {
  const mount = container.volumeMounts?.find((m) => m.mountPath === mountPath);
  return { mount, volume: spec.volumes?.find((v) => v.name === mount?.name) };
}

function worldOf(objects: readonly K8sObject[]): WorldConfig {
  const configMap = findObject<K8sObject & { data: Record<string, string> }>(
    objects,
    'ConfigMap',
    'cluster-bot-config',
  );
  return parseWorldConfig(configMap.data['config.yaml']!, 'deploy/base/config.yaml');
}

/** Every file the world YAML tells the worker to read: SSH keys, known_hosts, kubeconfigs. */
function secretPathsOf(world: WorldConfig): string[] {
  const clusters = Object.values(world.clusters);
  return [
    ...new Set([
      world.ops.privateKeyPath,
      world.ops.knownHostsPath,
      ...clusters.flatMap((c) => [c.kubeconfigPath, c.nodeSsh.privateKeyPath, c.nodeSsh.knownHostsPath]),
    ]),
  ];
}

describe('bot and worker Deployments', () => {
  it('run one image in two roles: a single bot, two workers', () => {
    expect(envValue(appContainer(bot), 'CLUSTER_BOT_ROLE')).toBe('bot');
    expect(envValue(appContainer(worker), 'CLUSTER_BOT_ROLE')).toBe('worker');
    expect(bot.spec.replicas).toBe(1);
    expect(worker.spec.replicas).toBe(2);
    expect(appContainer(bot).image).toBe(appContainer(worker).image);
  });

  it('select their own pods, and the bot Service sends port 80 to the port the bot listens on', () => {
    for (const workload of [bot, worker]) {
      expect(selectorMatches(workload.spec.selector, workload.spec.template.metadata.labels)).toBe(true);
    }
    expect(selectorMatches(bot.spec.selector, worker.spec.template.metadata.labels)).toBe(false);
    const service = findObject<ServiceObject>(objects, 'Service', 'cluster-bot');
    expect(selectorMatches({ matchLabels: service.spec.selector }, bot.spec.template.metadata.labels)).toBe(
      true,
    );
    expect(
      selectorMatches({ matchLabels: service.spec.selector }, worker.spec.template.metadata.labels),
    ).toBe(false);
    const [port] = service.spec.ports;
    const containerPort = appContainer(bot).ports?.find((p) => p.name === port?.targetPort);
    expect(port?.port).toBe(80);
    expect(containerPort?.containerPort).toBe(Number(envValue(appContainer(bot), 'PORT')));
    expect(containerPort?.containerPort).toBe(3000);
  });

  it('are ready on /readyz and alive on /healthz at OPS_PORT, which Prometheus scrapes and no Service exposes', () => {
    for (const workload of [bot, worker]) {
      const container = appContainer(workload);
      const opsPort = Number(envValue(container, 'OPS_PORT'));
      const port = container.ports?.find((p) => p.containerPort === opsPort);
      expect(port?.name, workload.metadata.name).toBe('ops');
      expect(container.readinessProbe?.httpGet?.path, workload.metadata.name).toBe('/readyz');
      // A Redis or Slack outage must not restart the pods: liveness only asks whether the process answers.
      expect(container.livenessProbe?.httpGet?.path, workload.metadata.name).toBe('/healthz');
      for (const probe of [container.readinessProbe, container.livenessProbe]) {
        expect([port?.name, port?.containerPort]).toContain(probe?.httpGet?.port);
      }
      expect(workload.spec.template.metadata.annotations, workload.metadata.name).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(opsPort),
        'prometheus.io/path': '/metrics',
      });
    }
    // Only the bot takes Slack's requests, on PORT; a worker listens on the ops port alone.
    expect(appContainer(worker).ports?.map((p) => p.name)).toEqual(['ops']);
    const service = findObject<ServiceObject>(objects, 'Service', 'cluster-bot');
    expect(service.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
  });

  it('read the same environment variables, every one of them accepted by readEnv with its value', () => {
    const botEnv = environmentOf(appContainer(bot), FAKE_SECRETS);
    const workerEnv = environmentOf(appContainer(worker), FAKE_SECRETS);
    // The worker takes no Slack requests: the same variables but the two that let one forge them.
    expect(Object.keys(workerEnv).sort()).toEqual(
      Object.keys(botEnv)
        .filter((name) => name !== 'SLACK_APP_TOKEN' && name !== 'SLACK_SIGNING_SECRET')
        .sort(),
    );
    for (const [environment, role] of [
      [botEnv, 'bot'],
      [workerEnv, 'worker'],
    ] as const) {
      const parsed = readEnv(environment);
      // readEnv keeps only the variables it knows: a misspelt name would vanish here.
      const expanded = expandedNames(appContainer(role === 'bot' ? bot : worker));
      for (const name of Object.keys(environment).filter((n) => !expanded.has(n)))
        expect(parsed, name).toHaveProperty(name);
      expect(parsed.CLUSTER_BOT_ROLE).toBe(role);
      expect(parsed.REDIS_URL).toBe(
        `rediss://:${FAKE_SECRETS['cluster-bot-redis/password']}@cluster-bot-redis:6379`,
      );
    }
  });

  it('take the Slack token from Secret cluster-bot-slack and the Redis password from cluster-bot-redis; only the bot gets the transport tokens (optional)', () => {
    const refsOf = (workload: Workload) =>
      Object.fromEntries(
        (appContainer(workload).env ?? []).flatMap((v) =>
          v.valueFrom?.secretKeyRef ? [[v.name, v.valueFrom.secretKeyRef]] : [],
        ),
      );
    const botToken = {
      SLACK_BOT_TOKEN: { name: 'cluster-bot-slack', key: 'bot-token' },
      REDIS_PASSWORD: { name: 'cluster-bot-redis', key: 'password' },
      JOB_PAGE_SECRET: { name: 'cluster-bot-slack', key: 'job-page-secret' },
    };
    expect(refsOf(bot)).toEqual({
      ...botToken,
      SLACK_APP_TOKEN: { name: 'cluster-bot-slack', key: 'app-token', optional: true },
      SLACK_SIGNING_SECRET: { name: 'cluster-bot-slack', key: 'signing-secret', optional: true },
    });
    expect(refsOf(worker)).toEqual(botToken);
  });

  it('read a valid world YAML from the generated ConfigMap, where CLUSTER_BOT_CONFIG points', () => {
    for (const workload of [bot, worker]) {
      const container = appContainer(workload);
      const configPath = envValue(container, 'CLUSTER_BOT_CONFIG')!;
      const { mount, volume } = mountedVolume(workload.spec.template.spec, container, dirname(configPath));
      expect(volume?.configMap?.name, workload.metadata.name).toBe('cluster-bot-config');
      expect(mount?.readOnly).toBe(true);
      expect(configPath).toBe(`${mount?.mountPath}/config.yaml`);
    }
    expect(Object.keys(worldOf(objects).clusters)).not.toHaveLength(0);
  });

  it("the worker finds every SSH key, known_hosts and kubeconfig the world names; the bot holds none but Redis's CA", () => {
    const spec = worker.spec.template.spec;
    for (const path of secretPathsOf(worldOf(objects))) {
      const { mount, volume } = mountedVolume(spec, appContainer(worker), dirname(path));
      expect(volume?.secret?.secretName, path).toMatch(/^cluster-bot-(ssh|kubeconfigs)$/);
      expect(mount?.readOnly, path).toBe(true);
      // Readable by the container's group (fsGroup), by nobody else.
      expect((volume?.secret?.defaultMode ?? 0o644) & 0o007, path).toBe(0);
    }
    // The bot's one Secret volume is Redis's CA, that key alone (never Redis's TLS key).
    expect(bot.spec.template.spec.volumes?.filter((v) => v.secret)).toEqual([
      {
        name: 'redis-ca',
        secret: { secretName: 'cluster-bot-redis', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
      },
    ]);
  });

  it('have writable DATA_DIR and /tmp volumes, since the root filesystem is read-only', () => {
    for (const workload of [bot, worker]) {
      const container = appContainer(workload);
      for (const path of [envValue(container, 'DATA_DIR')!, '/tmp']) {
        const { mount, volume } = mountedVolume(workload.spec.template.spec, container, path);
        expect(mount?.readOnly ?? false, `${workload.metadata.name} ${path}`).toBe(false);
        expect(
          volume?.emptyDir ?? volume?.persistentVolumeClaim,
          `${workload.metadata.name} ${path}`,
        ).toBeDefined();
      }
    }
  });
});

describe('every pod (bot, worker, Redis)', () => {
  const pods = podTemplatesOf(objects);

  it('runs as a non-root uid with seccomp RuntimeDefault, and gets no Kubernetes API token', () => {
    expect(pods.map((p) => p.owner).sort()).toEqual([
      'Deployment/cluster-bot-bot',
      'Deployment/cluster-bot-worker',
      'StatefulSet/cluster-bot-redis',
    ]);
    for (const { owner, spec } of pods) {
      expect(spec.securityContext?.runAsNonRoot, owner).toBe(true);
      expect(spec.securityContext?.runAsUser, owner).toBeGreaterThan(0);
      expect(spec.securityContext?.seccompProfile?.type, owner).toBe('RuntimeDefault');
      expect(spec.automountServiceAccountToken, owner).toBe(false);
      expect(spec.hostNetwork ?? false, owner).toBe(false);
      expect(spec.volumes?.filter((v) => 'hostPath' in v) ?? [], owner).toEqual([]);
    }
  });

  it('has containers with a read-only root filesystem, no privilege escalation and ALL capabilities dropped', () => {
    for (const { owner, spec } of pods) {
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        expect(container.securityContext, `${owner} ${container.name}`).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.securityContext?.capabilities?.add ?? []).toEqual([]);
        expect(container.securityContext?.privileged ?? false).toBe(false);
      }
    }
  });

  it('requests CPU and memory and has a memory limit, so one runaway job cannot starve the node', () => {
    for (const { owner, spec } of pods) {
      for (const container of spec.containers) {
        expect(container.resources?.requests, owner).toMatchObject({
          cpu: expect.any(String),
          memory: expect.any(String),
        });
        expect(container.resources?.limits?.memory, owner).toEqual(expect.any(String));
      }
    }
  });

  it('gets env values and args as strings, as the API server demands (an unquoted yes or 3000 is refused)', () => {
    for (const { owner, spec } of pods) {
      for (const container of spec.containers) {
        for (const variable of container.env ?? []) {
          if (variable.valueFrom === undefined)
            expect(typeof variable.value, `${owner} ${variable.name}`).toBe('string');
        }
        for (const arg of [...(container.command ?? []), ...(container.args ?? [])]) {
          expect(typeof arg, `${owner} ${String(arg)}`).toBe('string');
        }
      }
    }
  });
});
