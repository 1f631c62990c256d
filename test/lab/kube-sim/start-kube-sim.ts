import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { writeReply } from './api-reply.js';
import { failure, forbidden, KubeApiError, UNAUTHORIZED } from './api-status.js';
import { buildKubeconfig } from './build-kubeconfig.js';
import { ClusterSim, type KubeSimState } from './cluster-sim.js';
import type { HelmRelease } from './flux-helm-release.js';
import { generateTls } from './generate-tls.js';
import { handleApiRequest } from './handle-api-request.js';
import { handleSimRequest } from './handle-sim-request.js';
import type { HelmHistoryEntry } from './helm-history.js';
import { type KubeSimOptions, resolveKubeSimOptions } from './kube-sim-options.js';
import { parseApiPath } from './parse-api-path.js';
import { serveWatch } from './serve-watch.js';

export type { KubeSimState } from './cluster-sim.js';
export type { HelmRelease } from './flux-helm-release.js';
export type { HelmHistoryEntry } from './helm-history.js';
export type { KubeSimOptions, KubeSimScenario } from './kube-sim-options.js';

export interface KubeSimRequest {
  readonly method: string;
  readonly path: string;
  /** The query string without "?" ("" when none). */
  readonly query: string;
}

export interface KubeSimHandle {
  /** https://127.0.0.1:PORT (or the `host` it was asked to listen on) */
  readonly url: string;
  /** A kubeconfig (YAML) for this server: its CA and the bearer token. */
  readonly kubeconfig: string;
  readonly token: string;
  /** The CA that signed the server certificate (PEM), e.g. for ansible `uri` ca_path. */
  readonly caPem: string;
  /** Every request received, in order. */
  readonly requests: readonly KubeSimRequest[];
  /** TCP connections accepted so far (a client that reuses connections opens few). */
  readonly connectionCount: number;
  writeKubeconfig(path: string): Promise<void>;
  setNodeReady(name: string, ready: boolean): void;
  /** Changes the cilium agent template (a Helm upgrade, a new release revision); returns the new controller-revision-hash. */
  startCiliumRollout(): string;
  /** The `cilium` release's revisions, as `helm history cilium -n kube-system -o json` prints them. */
  helmHistory(): HelmHistoryEntry[];
  /** The deployed revision's user-supplied values (`helm get values cilium -o json`). */
  helmValues(): Record<string, unknown>;
  /** Flux serves `sha` of main: GitRepository flux-system (`main@sha1:<sha>`) and Kustomization flux-system at `path`. */
  serveGitRevision(sha: string, path?: string): void;
  /** Someone changed the live release's values by hand (a new revision, same agent template). */
  setHelmValues(values: Record<string, unknown>): void;
  /** The `cilium` HelmRelease, when Flux has one (scenario helmRelease). */
  helmRelease(): HelmRelease | undefined;
  addKubeProxy(): void;
  removeNode(name: string): boolean;
  /**
   * k3s installed at `version` on a node: one not registered registers (NotReady first, then Ready);
   * one registered at another version restarts at this one; false (no-op) otherwise.
   */
  joinNode(name: string, version?: string): boolean;
  /** The next k3s installed on this node at a new version never comes up: NotReady, old version. */
  failK3sStart(name: string): void;
  /** Ends every open watch stream abruptly (the socket is destroyed); returns how many. */
  cutWatches(): number;
  /** While true every connection, open or new, is destroyed at once (the API looks unreachable). */
  setUnreachable(unreachable: boolean): void;
  /** Every request for these resources (plurals, e.g. "daemonsets") is refused 403, as RBAC would. */
  forbid(plurals: readonly string[]): void;
  state(): KubeSimState;
  close(): Promise<void>;
}

/** Starts a simulated k3s API server on 127.0.0.1 (or `host`; a free port), with a settled cluster in it. */
export async function startKubeSim(options: KubeSimOptions = {}): Promise<KubeSimHandle> {
  const resolved = resolveKubeSimOptions(options, () => randomBytes(24).toString('hex'));
  const tls = await generateTls(resolved.host);
  const sim = new ClusterSim(resolved);
  const watches = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const requests: KubeSimRequest[] = [];
  let unreachable = false;
  let forbiddenPlurals: readonly string[] = [];
  let connectionCount = 0;

  const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
    const url = new URL(req.url ?? '/', `https://${req.headers.host ?? '127.0.0.1'}`);
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: url.search.replace(/^\?/, '') });
    readBody(req)
      .then((body) => {
        if (url.pathname.startsWith('/_sim/')) {
          writeReply(res, handleSimRequest(method, url.pathname, sim, kubeconfig, body));
          // k3s stopped on the last server: its watches end with it.
          if (!sim.k3s.apiAnswers()) for (const watch of watches) watch.destroy();
          return;
        }
        if (!sim.k3s.apiAnswers()) return req.socket.destroy();
        if (!authorised(req, resolved.token)) return writeReply(res, { code: 401, json: UNAUTHORIZED });
        const target = parseApiPath(url.pathname);
        if (target && forbiddenPlurals.includes(target.resource.plural)) {
          const verb = method === 'GET' ? (target.name === undefined ? 'list' : 'get') : method.toLowerCase();
          return writeReply(res, {
            code: 403,
            json: forbidden(verb, target.resource, target.namespace, target.name),
          });
        }
        const reply = handleApiRequest(
          { method, url, contentType: req.headers['content-type'] ?? '', body },
          sim.store,
        );
        if ('watch' in reply) serveWatch(res, sim.store, reply.watch, watches);
        else writeReply(res, reply);
      })
      .catch((error: unknown) => answerError(res, error));
  });
  server.on('connection', (socket: Socket) => {
    if (unreachable) {
      socket.destroy();
      return;
    }
    connectionCount++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, resolved.host, () => resolve());
  });
  const url = `https://${resolved.host}:${(server.address() as AddressInfo).port}`;
  const kubeconfig = buildKubeconfig(url, tls.caPem, resolved.token);

  return {
    url,
    kubeconfig,
    token: resolved.token,
    caPem: tls.caPem,
    requests,
    get connectionCount() {
      return connectionCount;
    },
    writeKubeconfig: (path) => writeFile(path, kubeconfig, { mode: 0o600 }),
    setNodeReady: (name, ready) => sim.setNodeReady(name, ready),
    startCiliumRollout: () => sim.startCiliumRollout(),
    helmHistory: () => sim.helmHistory(),
    helmValues: () => sim.helmValues() ?? {},
    serveGitRevision: (sha, path = './clusters/dev') => sim.serveGitRevision(sha, path),
    setHelmValues: (values) => sim.setHelmValues(values),
    helmRelease: () => sim.store.get<HelmRelease>('helmreleases', 'kube-system', 'cilium'),
    addKubeProxy: () => sim.addKubeProxy(),
    removeNode: (name) => sim.removeNode(name),
    joinNode: (name, version) => sim.joinNode(name, version),
    failK3sStart: (name) => sim.failK3sStart(name),
    cutWatches: () => {
      const open = [...watches];
      for (const res of open) res.destroy();
      return open.length;
    },
    forbid: (plurals) => {
      forbiddenPlurals = plurals;
    },
    setUnreachable: (value) => {
      unreachable = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    state: () => sim.state(),
    close: async () => {
      sim.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function authorised(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function answerError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status =
    error instanceof KubeApiError
      ? error.status
      : failure(500, 'InternalError', `Internal error occurred: ${(error as Error).message}`);
  writeReply(res, { code: status.code, json: status });
}
