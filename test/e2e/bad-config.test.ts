import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-badconfig-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  // Redis points at a closed port: a bad config must fail before anything connects.
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', REDIS_URL: 'redis://127.0.0.1:1', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 30_000,
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
