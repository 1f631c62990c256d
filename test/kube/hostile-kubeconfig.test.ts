import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { WorldConfig } from '../../src/config/world-config.js';
import { checkKubeconfig } from '../../src/kube/check-kubeconfig.js';
import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import { startKubeSim } from '../lab/kube-sim/start-kube-sim.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { loadExampleWorld } from '../support/example-world.js';

const cleanups = cleanupAfterEach();

let example: WorldConfig;
beforeAll(async () => {
  example = await loadExampleWorld();
});

/** A kubeconfig otherwise valid for the sim whose user runs an exec plugin that would leave a marker file. */
function withExecPlugin(kubeconfig: string, marker: string): string {
  const doc = parse(kubeconfig);
  doc.users[0].user.exec = {
    apiVersion: 'client.authentication.k8s.io/v1',
    command: '/bin/sh',
    args: [
      '-c',
      `env > '${marker}'; printf '%s' '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x"}}'`,
    ],
    interactiveMode: 'Never',
  };
  return stringify(doc);
}

describe('a hostile kubeconfig, mounted or adopted, against a real API server', () => {
  it('an exec plugin is never spawned: the mounted one and the adopted one are refused naming exec, and the API sees nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-hostile-kube-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const sim = await startKubeSim();
    cleanups.push(() => sim.close());
    const marker = join(dir, 'plugin-ran');
    const hostile = withExecPlugin(sim.kubeconfig, marker);
    const mounted = join(dir, 'mounted.kubeconfig');
    await writeFile(mounted, hostile, { mode: 0o600 });
    const world: WorldConfig = {
      ...example,
      clusters: { dev: { ...example.clusters.dev!, kubeconfigPath: mounted } },
    };
    const dataDir = join(dir, 'data');
    const kubes = createClusterKubes(world, dataDir);

    const mountedUse = await kubes
      .kubeFor('dev')
      .listNodes()
      .then(
        () => 'loaded',
        (error: Error) => error.message,
      );
    const adoption = await kubes.adopt('dev', hostile, []).then(
      () => 'adopted',
      (error: Error) => error.message,
    );

    // No process was spawned: the plugin would have written the worker's environment here.
    expect(existsSync(marker)).toBe(false);
    expect(mountedUse).toBe(
      `kubeconfig ${mounted} refused, not loaded: users[default].user.exec: it runs a program (a credential plugin) inside the bot with its environment`,
    );
    expect(adoption).toBe(
      'kubeconfig for dev from the ops host refused, not loaded: users[default].user.exec: it runs a program (a credential plugin) inside the bot with its environment',
    );
    expect(sim.requests).toEqual([]);
    // Nothing kept, not even the candidate: the refusal came before anything was written.
    expect(
      existsSync(join(dataDir, 'kubeconfigs')) ? await readdir(join(dataDir, 'kubeconfigs')) : [],
    ).toEqual([]);
  });
});

describe('the kubeconfig allowlist', () => {
  const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
  const base = () => ({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'c',
        cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': CA } as Record<
          string,
          unknown
        >,
      },
    ],
    users: [{ name: 'u', user: { token: 'tok' } as Record<string, unknown> }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
  const refusalOf = (doc: unknown) => {
    try {
      checkKubeconfig(stringify(doc), 'k');
      return 'accepted';
    } catch (error) {
      return (error as Error).message.replace('kubeconfig k refused, not loaded: ', '');
    }
  };

  it('accepts a static token or an inline client certificate, and gives back only those', () => {
    expect(checkKubeconfig(stringify(base()), 'k')).toEqual({
      server: 'https://127.0.0.1:6443',
      caData: CA,
      tlsServerName: undefined,
      credential: { token: 'tok' },
    });
    const cert = base();
    cert.users[0]!.user = { 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' };
    expect(checkKubeconfig(stringify(cert), 'k').credential).toEqual({
      certData: 'Y2VydA==',
      keyData: 'a2V5',
    });
  });

  it.each([
    [
      'users',
      'exec',
      { command: 'sh' },
      'users[u].user.exec: it runs a program (a credential plugin) inside the bot with its environment',
    ],
    [
      'users',
      'auth-provider',
      { name: 'oidc' },
      'users[u].user.auth-provider: it runs or refreshes credentials through a plugin',
    ],
    [
      'users',
      'token-file',
      '/run/token',
      'users[u].user.token-file: it makes the bot read a file it has not checked',
    ],
    [
      'users',
      'tokenFile',
      '/run/token',
      'users[u].user.tokenFile: it makes the bot read a file it has not checked',
    ],
    [
      'users',
      'client-key',
      '/k',
      'users[u].user.client-key: a file path: the key must be inline (client-key-data)',
    ],
    [
      'users',
      'client-certificate',
      '/c',
      'users[u].user.client-certificate: a file path: the certificate must be inline (client-certificate-data)',
    ],
    [
      'users',
      'username',
      'admin',
      'users[u].user.username: a password login is not accepted: use a client certificate or a token',
    ],
    [
      'clusters',
      'certificate-authority',
      '/ca',
      'clusters[c].cluster.certificate-authority: a file path: the CA must be inline (certificate-authority-data)',
    ],
    [
      'clusters',
      'proxy-url',
      'http://127.0.0.1:8',
      'clusters[c].cluster.proxy-url: it sends the API traffic, credentials included, through a proxy',
    ],
    [
      'clusters',
      'insecure-skip-tls-verify',
      true,
      "clusters[c].cluster.insecure-skip-tls-verify: it turns off the check of the API server's certificate",
    ],
    [
      'clusters',
      'disable-compression',
      true,
      'clusters[c].cluster.disable-compression: not a field the bot accepts (only server, certificate-authority-data, tls-server-name)',
    ],
  ])('refuses %s.%s, naming it and why', (list, field, value, reason) => {
    const doc = base();
    const entry = list === 'users' ? doc.users[0]!.user : doc.clusters[0]!.cluster;
    entry[field] = value;
    expect(refusalOf(doc)).toBe(reason);
  });

  it('refuses http://, a missing CA, no credential, two clusters, and lists every reason at once', () => {
    const doc = base();
    doc.clusters[0]!.cluster = { server: 'http://127.0.0.1:6443' };
    doc.users[0]!.user = {};
    expect(refusalOf(doc)).toBe(
      'clusters[c].cluster.server: http:// is not accepted, only https:// (the token would travel in clear); ' +
        "clusters[c].cluster.certificate-authority-data: required (the CA that signed the API server's certificate); " +
        'users[u].user: needs a static token, or client-certificate-data with client-key-data',
    );
    const two = base();
    two.clusters.push({
      name: 'd',
      cluster: { server: 'https://127.0.0.2:6443', 'certificate-authority-data': CA },
    });
    expect(refusalOf(two)).toBe('clusters: exactly one is accepted, found 2');
  });
});
