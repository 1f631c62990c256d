import { readFile as readFileFromDisk } from 'node:fs/promises';
import { parse } from 'yaml';
import type { ReadTextFile } from './load-world-config.js';
import type { WorldConfig } from './world-config.js';

const readUtf8: ReadTextFile = (path) => readFileFromDisk(path, 'utf8');

// A kubeconfig user's fields that are credentials (client-key-data, token, password, …).
const CREDENTIAL_FIELD = /key|token|password|secret/i;
const PEM_BODY_LINE = /^[A-Za-z0-9+/=]{16,}$/;

/**
 * The secrets in the files the config names (SSH private keys, kubeconfigs), as literals for the
 * redactor: a key's body lines, a kubeconfig user's credentials and the key inside
 * client-key-data, so none of them is posted even when printed without its BEGIN line. A file
 * that cannot be read adds nothing here; whoever uses it reports why.
 */
export async function secretFileValues(
  world: WorldConfig,
  readFile: ReadTextFile = readUtf8,
): Promise<string[]> {
  const keyPaths = [
    world.ops.privateKeyPath,
    ...Object.values(world.clusters).flatMap((cluster) =>
      cluster.nodeSsh.privateKeyPath ? [cluster.nodeSsh.privateKeyPath] : [],
    ),
  ];
  const kubeconfigPaths = Object.values(world.clusters).map((cluster) => cluster.kubeconfigPath);
  const read = (path: string) => readFile(path).catch(() => '');
  const keys = await Promise.all([...new Set(keyPaths)].map(read));
  const kubeconfigs = await Promise.all([...new Set(kubeconfigPaths)].map(read));
  return [...new Set([...keys.flatMap(keyBodyLines), ...kubeconfigs.flatMap(kubeconfigCredentials)])];
}

function keyBodyLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => PEM_BODY_LINE.test(line));
}

function kubeconfigCredentials(text: string): string[] {
  let users: unknown;
  try {
    users = (parse(text) as { users?: unknown } | null)?.users;
  } catch {
    return [];
  }
  if (!Array.isArray(users)) return [];
  return users.flatMap((entry: { user?: unknown }) => credentialsIn(entry?.user));
}

function credentialsIn(value: unknown, field = ''): string[] {
  if (typeof value === 'string') {
    if (!CREDENTIAL_FIELD.test(field)) return [];
    // client-key-data is base64 of a PEM key: the key itself may be printed decoded too.
    const decoded = field.endsWith('-data')
      ? keyBodyLines(Buffer.from(value, 'base64').toString('utf8'))
      : [];
    return [value, ...decoded];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => credentialsIn(item, key));
}
