import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { START_FLAGS } from '../support/start-flags.js';
import { findObject } from './find-object.js';
import type { Workload } from './k8s-types.js';
import { type DockerStage, parseDockerfile } from './parse-dockerfile.js';
import { readCompose } from './read-compose.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';

const NODE_24_PINNED = expect.stringMatching(/^node:24-bookworm-slim@sha256:[0-9a-f]{64}$/);
const stages = parseDockerfile(await readFile(repoPath('Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const dockerignore = (await readFile(repoPath('.dockerignore'), 'utf8'))
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

function all(stage: DockerStage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** `KEY=value KEY2=value2` ENV lines as one map (the last setting wins). */
function envOf(stage: DockerStage): Map<string, string> {
  return new Map(
    all(stage, 'ENV').flatMap((args) =>
      [...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!] as const),
    ),
  );
}

/** The .dockerignore allowlist: `*` first, then `!path` exceptions; a path is sent if under one. */
function inBuildContext(path: string): boolean {
  expect(dockerignore[0], '.dockerignore starts by excluding everything').toBe('*');
  return dockerignore
    .slice(1)
    .map((line) => {
      expect(line, 'only exceptions after *').toMatch(/^!/);
      return line.slice(1).replace(/\/$/, '');
    })
    .some((allowed) => path === allowed || path.startsWith(`${allowed}/`));
}

describe('Dockerfile', () => {
  it('is multi-stage on Node 24 pinned by digest: the build has dev dependencies, the runtime production ones only, no install scripts', () => {
    expect(stages.map((s) => s.from)).toEqual([NODE_24_PINNED, NODE_24_PINNED]);
    const [build] = stages;
    expect(all(build!, 'RUN').join('\n')).toMatch(/npm ci\b(?!.*--omit=dev)/);
    expect(all(build!, 'RUN').join('\n')).toContain('npm run build');
    expect(all(runtime, 'RUN').join('\n')).toMatch(/npm ci .*--omit=dev/);
    expect(all(runtime, 'RUN').join('\n')).toMatch(/npm ci .*--ignore-scripts/);
    expect(runtime.name).toBe('runtime');
  });

  it('ships only dist/, web/ (the job page), config/example.yaml and the package files: no sources, tests or local node_modules', () => {
    const copies = all(runtime, 'COPY');
    expect(copies).toContain(`--from=${stages[0]!.name} /app/dist ./dist`);
    const fromContext = copies
      .filter((c) => !c.startsWith('--from'))
      .flatMap((c) => c.split(' ').slice(0, -1));
    expect(fromContext.sort()).toEqual(['config/example.yaml', 'package-lock.json', 'package.json', 'web']);
  });

  it('runs as the non-root uid 10001, the uid the Kubernetes pods declare', async () => {
    const users = all(runtime, 'USER');
    const uid = Number(users.at(-1)?.split(':')[0]);
    expect(uid).toBe(10001);
    const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
    for (const name of ['cluster-bot-bot', 'cluster-bot-worker']) {
      expect(
        findObject<Workload>(objects, 'Deployment', name).spec.template.spec.securityContext?.runAsUser,
      ).toBe(uid);
    }
  });

  it('checks its own health on /healthz at $OPS_PORT with node (slim images have no curl), and exposes 3000 and 9090', () => {
    const [healthcheck] = all(runtime, 'HEALTHCHECK');
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*process\.env\.OPS_PORT \|\| 9090.*\/healthz/);
    expect(all(runtime, 'EXPOSE')).toEqual(['3000 9090']);
    expect(envOf(runtime).get('PORT')).toBe('3000');
    expect(envOf(runtime).get('OPS_PORT')).toBe('9090');
    // The product binds loopback by default: a container must say every interface, or no probe gets in.
    expect(envOf(runtime).get('HOST')).toBe('0.0.0.0');
  });

  it('sets NODE_ENV=production and a DATA_DIR volume, the same DATA_DIR compose and Kubernetes use', async () => {
    const env = envOf(runtime);
    expect(env.get('NODE_ENV')).toBe('production');
    expect(env.get('DATA_DIR')).toBe('/var/lib/cluster-bot');
    expect(all(runtime, 'VOLUME').join(' ')).toContain(env.get('DATA_DIR'));
    const compose = await readCompose();
    expect(compose.services.worker?.environment?.DATA_DIR).toBe(env.get('DATA_DIR'));
    expect(all(runtime, 'CMD').at(-1)).toContain('"dist/main.js"');
  });

  it('runs node with the flags npm start has (the heap cap the benchmark measured)', () => {
    expect(START_FLAGS).toContain('--max-old-space-size=256');
    for (const flag of START_FLAGS) expect(all(runtime, 'CMD').at(-1)).toContain(`"${flag}"`);
  });

  it('starts the `cluster-bot` bin entry with the same flags (its shebang passes them to node)', async () => {
    const [shebang] = (await readFile(new URL('../../src/main.ts', import.meta.url), 'utf8')).split('\n');
    expect(shebang).toBe(`#!/usr/bin/env -S node ${START_FLAGS.join(' ')}`);
  });

  it('sends only what it copies as build context: never .env, secrets, kubeconfigs or node_modules', () => {
    const copied = stages.flatMap((s) =>
      all(s, 'COPY')
        .filter((c) => !c.startsWith('--from'))
        .flatMap((c) => c.split(' ').slice(0, -1)),
    );
    for (const path of copied) expect(inBuildContext(path), path).toBe(true);
    for (const path of [
      '.env',
      'secrets/ssh/id_ed25519',
      'secrets/kube/dev.kubeconfig',
      'node_modules/x',
      '.git/config',
      'dist/main.js',
      'test/deploy/x.ts',
    ]) {
      expect(inBuildContext(path), path).toBe(false);
    }
  });
});
