import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One place the process's CPU went: a source file of the project, a package, Node.js, V8. */
export interface CpuPlace {
  readonly where: string;
  readonly ms: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Microseconds between samples: fine enough for jobs of a few milliseconds, light enough not to be one. */
const SAMPLING_US = 500;

/** Sends one DevTools protocol command to a V8 inspector (this process's, or a child's over its WebSocket). */
type Post = (method: string, params?: object) => Promise<unknown>;

/**
 * Runs `work` under V8's sampling profiler (in this process) and returns where its CPU went, most
 * first: each sample goes to the nearest frame on its stack that is the project's code (a file of
 * src/, test/, bench/) or a package's, so Node.js's and native work (a socket write, a file opened)
 * counts for the code that asked for it; garbage collection counts apart. Idle time is left out.
 */
export async function profileCpu<T>(work: () => Promise<T>): Promise<{ result: T; places: CpuPlace[] }> {
  const session = new Session();
  session.connect();
  try {
    return await profileWith((method, params) => session.post(method, params), work);
  } finally {
    session.disconnect();
  }
}

/**
 * The same for another Node process (the bot's, while the benchmark drives it): its inspector is
 * opened with SIGUSR1 (on the port `--inspect-port=0` in its NODE_OPTIONS picked, loopback), read
 * from the "Debugger listening on ws://…" line of its output, and spoken to over that WebSocket.
 */
export async function profileCpuOf<T>(
  child: { readonly pid?: number | undefined; kill(signal: NodeJS.Signals): boolean },
  output: () => string,
  work: () => Promise<T>,
  attribution: Attribution,
): Promise<{ result: T; places: CpuPlace[] }> {
  child.kill('SIGUSR1');
  const deadline = Date.now() + 15_000;
  const inspectorUrl = () => /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(output())?.[1];
  while (!inspectorUrl()) {
    if (Date.now() > deadline) throw new Error(`process ${child.pid} opened no inspector after SIGUSR1`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = inspectorUrl()!;
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not reach the inspector at ${url}`)), {
      once: true,
    });
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiting = reply.id === undefined ? undefined : pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id!);
    if (reply.error) waiting.reject(new Error(reply.error.message));
    else waiting.resolve(reply.result);
  });
  let nextId = 0;
  const post: Post = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await profileWith(post, work, attribution);
  } finally {
    socket.close();
  }
}

async function profileWith<T>(
  post: Post,
  work: () => Promise<T>,
  attribution: Attribution = 'nearest',
): Promise<{ result: T; places: CpuPlace[] }> {
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await post('Profiler.start');
  const result = await work();
  const { profile } = (await post('Profiler.stop')) as { profile: Profile };
  return { result, places: placesOf(profile, attribution) };
}

/**
 * How a sample finds its place: the `nearest` project file or package on its stack (what code
 * spent it), or the project file it was `entered` through (the outermost one: a request's handler,
 * the outbox drainer, the Home's refresh; what activity spent it), nearest when no project file is on it.
 */
export type Attribution = 'nearest' | 'entered';

function placesOf(profile: Profile, attribution: Attribution): CpuPlace[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const whereById = new Map<number, string | undefined>();
  const whereOf = (id: number): string | undefined => {
    if (whereById.has(id)) return whereById.get(id);
    const { functionName, url } = byId.get(id)!.callFrame;
    let where: string | undefined;
    if (functionName === '(idle)') where = undefined;
    else if (functionName === '(garbage collector)') where = 'V8: garbage collection';
    else if (ownPlace(url)) where = ownPlace(url);
    else {
      const parent = parentOf.get(id);
      const above = parent === undefined ? undefined : whereOf(parent);
      where = above ?? (url.startsWith('node:') ? 'Node.js' : 'V8 and native code');
    }
    whereById.set(id, where);
    return where;
  };
  const enteredById = new Map<number, string | undefined>();
  const enteredThrough = (id: number): string | undefined => {
    if (enteredById.has(id)) return enteredById.get(id);
    const parent = parentOf.get(id);
    const url = byId.get(id)!.callFrame.url;
    const entered =
      (parent === undefined ? undefined : enteredThrough(parent)) ??
      (url.startsWith('file:') && !url.includes('/node_modules/') ? ownPlace(url) : undefined);
    enteredById.set(id, entered);
    return entered;
  };
  const placeOf = (id: number) => {
    const where = whereOf(id);
    return where === undefined || attribution === 'nearest' ? where : (enteredThrough(id) ?? where);
  };
  const micros = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // Each delta is the time before its sample: it belongs to the sample before it.
  for (let i = 0; i + 1 < samples.length; i++) {
    const where = placeOf(samples[i]!);
    if (where === undefined) continue;
    micros.set(where, (micros.get(where) ?? 0) + (deltas[i + 1] ?? 0));
  }
  return [...micros].map(([where, us]) => ({ where, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
}

/** A package's name, or the project's file (relative to the repo); undefined for Node.js and native frames. */
function ownPlace(url: string): string | undefined {
  const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('file:')) return relative(REPO, fileURLToPath(url));
  return undefined;
}
