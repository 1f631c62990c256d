import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../support/wait-for.js';
import { canListen, createPortPicker } from './pick-port.js';

const run = promisify(execFile);
const LIMIT = { timeoutMs: 15_000, intervalMs: 50 };
const pickPort = createPortPicker(20_000);
/** Redis Cluster's bus listens on the client port + 10000. */
const BUS_OFFSET = 10_000;

export interface RedisCluster {
  /** `127.0.0.1:port,…`, as REDIS_CLUSTER_NODES takes it. */
  readonly nodes: string;
  readonly ports: readonly number[];
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster on loopback: three `redis-server --cluster-enabled yes` masters joined by
 * `redis-cli --cluster create`, no replicas, nothing saved. Resolves once `cluster_state:ok`.
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'cb-redis-cluster-'));
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  const stop = async () => {
    for (const server of servers) server.kill('SIGKILL');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.once('exit', resolve))));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    while (ports.length < masters) {
      const port = await pickPort();
      if (!ports.includes(port) && (await canListen('127.0.0.1', port + BUS_OFFSET))) ports.push(port);
    }
    for (const port of ports) servers.push(startMaster(dir, port));
    for (const port of ports) await waitFor(`redis-server on ${port} to answer`, () => answers(port), LIMIT);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) await waitFor(`cluster_state:ok on ${port}`, () => clusterOk(port), LIMIT);
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((port) => `127.0.0.1:${port}`).join(','), ports, stop };
}

function startMaster(dir: string, port: number): ChildProcess {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(dir, `nodes-${port}.conf`),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  return spawn('redis-server', args, { stdio: 'ignore' });
}

async function answers(port: number): Promise<boolean> {
  return run('redis-cli', ['-p', String(port), 'ping']).then(
    ({ stdout }) => stdout.trim() === 'PONG',
    () => false,
  );
}

async function clusterOk(port: number): Promise<boolean> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
  return stdout.includes('cluster_state:ok');
}
