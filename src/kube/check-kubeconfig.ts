import { parse } from 'yaml';
import { ClusterBotError } from '../errors.js';

/** What client-node is given of a kubeconfig that passed the allowlist: nothing else is loaded. */
export interface CheckedKubeconfig {
  /** The API server as written (an https:// origin). */
  readonly server: string;
  readonly caData: string;
  readonly tlsServerName?: string | undefined;
  readonly credential: { readonly token: string } | { readonly certData: string; readonly keyData: string };
}

// A kubeconfig is code as much as data: client-node spawns an `exec` plugin (with the whole
// environment of the process) or reads any path it names, before the bot has seen a single reply.
// So each field is named here with why it is refused, and anything not on the allowlist is refused too.
const FORBIDDEN: Readonly<Record<string, string>> = {
  exec: 'it runs a program (a credential plugin) inside the bot with its environment',
  'auth-provider': 'it runs or refreshes credentials through a plugin',
  'token-file': 'it makes the bot read a file it has not checked',
  tokenFile: 'it makes the bot read a file it has not checked',
  'certificate-authority': 'a file path: the CA must be inline (certificate-authority-data)',
  'client-certificate': 'a file path: the certificate must be inline (client-certificate-data)',
  'client-key': 'a file path: the key must be inline (client-key-data)',
  'proxy-url': 'it sends the API traffic, credentials included, through a proxy',
  'insecure-skip-tls-verify': "it turns off the check of the API server's certificate",
  username: 'a password login is not accepted: use a client certificate or a token',
  password: 'a password login is not accepted: use a client certificate or a token',
  as: 'impersonation is not accepted',
  'as-user-extra': 'impersonation is not accepted',
  'as-groups': 'impersonation is not accepted',
  extensions: 'extensions are not accepted',
};

const ALLOWED = {
  top: ['apiVersion', 'kind', 'clusters', 'users', 'contexts', 'current-context', 'preferences'],
  cluster: ['server', 'certificate-authority-data', 'tls-server-name'],
  user: ['token', 'client-certificate-data', 'client-key-data'],
  context: ['cluster', 'user', 'namespace'],
} as const;

type Entry = Record<string, unknown>;

/**
 * Parses a kubeconfig (YAML text) against the bot's allowlist, before anything loads it: exactly one
 * cluster, user and context; an https:// server with its CA inline; a static token or an inline
 * client certificate. Refuses, naming every field at fault and why, where `source` says whose it is.
 */
export function checkKubeconfig(text: string, source: string): CheckedKubeconfig {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (cause) {
    throw refusal(source, [`not valid YAML (${(cause as Error).message.split('\n')[0]})`]);
  }
  if (!isEntry(doc)) throw refusal(source, ['not a kubeconfig (a YAML mapping)']);
  checkFields(doc, ALLOWED.top, '', problems);
  if (
    doc.preferences !== undefined &&
    !(isEntry(doc.preferences) && Object.keys(doc.preferences).length === 0)
  ) {
    problems.push('preferences: must be empty');
  }
  const cluster = onlyEntry(doc, 'clusters', 'cluster', problems);
  const user = onlyEntry(doc, 'users', 'user', problems);
  const context = onlyEntry(doc, 'contexts', 'context', problems);
  if (cluster) checkFields(cluster.body, ALLOWED.cluster, `clusters[${cluster.name}].cluster.`, problems);
  if (user) checkFields(user.body, ALLOWED.user, `users[${user.name}].user.`, problems);
  if (context) checkFields(context.body, ALLOWED.context, `contexts[${context.name}].context.`, problems);
  if (context && cluster && context.body.cluster !== cluster.name) {
    problems.push(`contexts[${context.name}].context.cluster: must name the cluster ${cluster.name}`);
  }
  if (context && user && context.body.user !== user.name) {
    problems.push(`contexts[${context.name}].context.user: must name the user ${user.name}`);
  }
  if (context && doc['current-context'] !== undefined && doc['current-context'] !== context.name) {
    problems.push(`current-context: must name the context ${context.name}`);
  }
  const server = cluster
    ? checkServer(cluster.body.server, `clusters[${cluster.name}].cluster.server`, problems)
    : undefined;
  const caData = cluster ? nonEmptyText(cluster.body['certificate-authority-data']) : undefined;
  if (cluster && caData === undefined) {
    problems.push(
      `clusters[${cluster.name}].cluster.certificate-authority-data: required (the CA that signed the API server's certificate)`,
    );
  }
  const credential = user ? credentialOf(user, problems) : undefined;
  if (problems.length > 0 || !server || !caData || !credential || !cluster) throw refusal(source, problems);
  return { server, caData, tlsServerName: nonEmptyText(cluster.body['tls-server-name']), credential };
}

function credentialOf(
  user: { name: string; body: Entry },
  problems: string[],
): CheckedKubeconfig['credential'] | undefined {
  const token = nonEmptyText(user.body.token);
  const certData = nonEmptyText(user.body['client-certificate-data']);
  const keyData = nonEmptyText(user.body['client-key-data']);
  const at = `users[${user.name}].user`;
  if (token !== undefined && (certData !== undefined || keyData !== undefined)) {
    problems.push(`${at}: a token or a client certificate, not both`);
    return undefined;
  }
  if (token !== undefined) return { token };
  if (certData !== undefined && keyData !== undefined) return { certData, keyData };
  problems.push(`${at}: needs a static token, or client-certificate-data with client-key-data`);
  return undefined;
}

function checkServer(value: unknown, at: string, problems: string[]): string | undefined {
  const server = nonEmptyText(value);
  const url = server !== undefined && URL.canParse(server) ? new URL(server) : undefined;
  if (!url) {
    problems.push(`${at}: required, an https:// URL`);
    return undefined;
  }
  if (url.protocol !== 'https:') {
    problems.push(
      `${at}: ${url.protocol}// is not accepted, only https:// (the token would travel in clear)`,
    );
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    problems.push(`${at}: must be https://host:port alone (no path, query, fragment or credentials)`);
    return undefined;
  }
  return server;
}

function onlyEntry(
  doc: Entry,
  list: string,
  key: string,
  problems: string[],
): { name: string; body: Entry } | undefined {
  const entries = doc[list];
  if (!Array.isArray(entries) || entries.length !== 1) {
    problems.push(
      `${list}: exactly one is accepted, found ${Array.isArray(entries) ? entries.length : 'none'}`,
    );
    return undefined;
  }
  const [entry] = entries as unknown[];
  const name = isEntry(entry) ? nonEmptyText(entry.name) : undefined;
  if (!isEntry(entry) || name === undefined || !isEntry(entry[key])) {
    problems.push(`${list}[0]: needs a name and a ${key} mapping`);
    return undefined;
  }
  for (const extra of Object.keys(entry).filter((field) => field !== 'name' && field !== key)) {
    problems.push(`${list}[${name}].${extra}: ${FORBIDDEN[extra] ?? 'not a field the bot accepts'}`);
  }
  return { name, body: entry[key] };
}

function checkFields(entry: Entry, allowed: readonly string[], at: string, problems: string[]): void {
  for (const field of Object.keys(entry)) {
    if (allowed.includes(field)) continue;
    problems.push(
      `${at}${field}: ${FORBIDDEN[field] ?? `not a field the bot accepts (only ${allowed.join(', ')})`}`,
    );
  }
}

function refusal(source: string, problems: readonly string[]): ClusterBotError {
  return new ClusterBotError(
    'KUBE_UNREACHABLE',
    `kubeconfig ${source} refused, not loaded: ${problems.join('; ')}`,
    { details: { problems } },
  );
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
