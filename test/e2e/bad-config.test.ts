import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUILD_MAIN } from '../support/build-for-tests.js';
import { labMs } from '../support/lab-time.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-badconfig-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  // Redis points at a closed port: a bad config must fail before anything connects.
  return spawnSync(process.execPath, [TEST_BUILD_MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', REDIS_URL: 'redis://127.0.0.1:1', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: labMs(30_000),
  });
}

describe('the process refuses bad configuration at start', () => {
  it('exits 2 naming the YAML key and the reason', async () => {
    const example = await readFile(join(ROOT, 'config/example.yaml'), 'utf8');
    const path = join(dir, 'bad.yaml');
    await writeFile(path, example.replace('192.168.2.11', 'not an address!'));
    const result = start({
      SLACK_BOT_TOKEN: 'xoxb-1-2',
      SLACK_SIGNING_SECRET: 'secret-123456',
      CLUSTER_BOT_CONFIG: path,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('clusters.prod.nodes.k3s-prod-2.address: expected an IP or host name');
  });

  it('exits 2 naming a secret file others can read, and its mode, before connecting anywhere', async () => {
    const key = join(dir, 'id_ed25519');
    const kubeconfig = join(dir, 'dev.kubeconfig');
    await writeFile(key, 'not really a key\n', { mode: 0o644 });
    await chmod(key, 0o644);
    await writeFile(kubeconfig, 'apiVersion: v1\n', { mode: 0o600 });
    const example = await readFile(join(ROOT, 'config/example.yaml'), 'utf8');
    const path = join(dir, 'loose-key.yaml');
    await writeFile(
      path,
      example
        .replaceAll('/run/secrets/ssh/id_ed25519', key)
        .replaceAll('/run/secrets/kube/dev.kubeconfig', kubeconfig),
    );
    const result = start({ CLUSTER_BOT_CONFIG: path });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `${key}: mode 0644 lets other users read this secret (world-readable); chmod 600 it`,
    );
    expect(result.stderr).not.toContain(kubeconfig);
  });

  it('exits 2 naming the environment variable and the reason', () => {
    const result = start({
      SLACK_BOT_TOKEN: 'xoxb-1-2',
      SLACK_SIGNING_SECRET: 'secret-123456',
      PORT: 'eighty',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('PORT: expected a port number');
  });
});
