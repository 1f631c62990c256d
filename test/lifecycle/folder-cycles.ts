import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One import that crosses folders: the file that imports and the file it imports. */
export interface FolderImport {
  readonly from: string;
  readonly to: string;
}

/** For each folder, the folders it imports and, for each, the first import that does it. */
export type FolderGraph = ReadonlyMap<string, ReadonlyMap<string, FolderImport>>;

/** The files directly under the root share one name, so they count as a folder too. */
export const ROOT_FOLDER = '(root)';

// A whole-statement `import type`/`export type` is erased by the compiler, so it loads nothing: the
// same line biome's noImportCycles draws (ignoreTypes). `import { type X }` still counts.
const LOADING_IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s+(?!type[\s{*])(?:[^;'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function folderOf(root: string, file: string): string | undefined {
  const path = relative(root, file);
  if (path.startsWith('..')) return undefined;
  const parts = path.split(sep);
  return parts.length === 1 ? ROOT_FOLDER : parts[0];
}

/** Which folders under `root` load which, read from each .ts file's relative imports. */
export function readFolderGraph(root: string): FolderGraph {
  const graph = new Map<string, Map<string, FolderImport>>();
  for (const file of tsFiles(root).sort()) {
    const from = folderOf(root, file)!;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(LOADING_IMPORT)) {
      const target = resolve(dirname(file), specifier!).replace(/\.js$/, '.ts');
      const to = folderOf(root, target);
      if (to === undefined || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, FolderImport>();
      graph.set(from, edges);
      if (!edges.has(to)) edges.set(to, { from: relative(root, file), to: relative(root, target) });
    }
  }
  return graph;
}

/**
 * Every cycle a depth-first walk meets (one per edge back into the path), each named folder by
 * folder with the import that makes each step: `a → b → a (a/x.ts imports b/y.ts; …)`.
 */
export function folderCycles(graph: FolderGraph): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (folder: string): void => {
    path.push(folder);
    for (const next of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      const start = path.indexOf(next);
      if (start >= 0) cycles.push(describeCycle(graph, [...path.slice(start), next]));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(folder);
  };
  for (const folder of [...graph.keys()].sort()) if (!done.has(folder)) visit(folder);
  return cycles;
}

function describeCycle(graph: FolderGraph, folders: readonly string[]): string {
  const steps = folders.slice(1).map((to, index) => graph.get(folders[index]!)!.get(to)!);
  return `${folders.join(' → ')} (${steps.map((step) => `${step.from} imports ${step.to}`).join('; ')})`;
}
