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
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return { result, places: placesOf(profile) };
  } finally {
    session.disconnect();
  }
}

function placesOf(profile: Profile): CpuPlace[] {
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
  const micros = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // Each delta is the time before its sample: it belongs to the sample before it.
  for (let i = 0; i + 1 < samples.length; i++) {
    const where = whereOf(samples[i]!);
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
