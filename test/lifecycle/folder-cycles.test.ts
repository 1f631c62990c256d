import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type FolderImport, folderCycles, readFolderGraph } from './folder-cycles.js';

const LIFECYCLE = fileURLToPath(new URL('../../src/lifecycle', import.meta.url));

describe('src/lifecycle folders', () => {
  it('import each other in one direction only: no folder reaches back to one that imports it', () => {
    expect(folderCycles(readFolderGraph(LIFECYCLE))).toEqual([]);
  });

  it('are read from the imports that load a module, not the type-only ones the compiler erases', () => {
    const graph = readFolderGraph(LIFECYCLE);
    expect(graph.get('cilium')?.get('gates')).toBeDefined();
    // The command's type is derived from the verbs' registry (`import type`): nothing is loaded.
    expect([...(graph.get('command')?.keys() ?? [])]).not.toContain('verbs');
  });
});

describe('folderCycles', () => {
  const edge = (from: string, to: string): FolderImport => ({ from: `${from}/a.ts`, to: `${to}/b.ts` });

  it('names each folder of a cycle and the import that makes each step', () => {
    const graph = new Map([
      ['cilium', new Map([['remote', edge('cilium', 'remote')]])],
      ['remote', new Map([['repo', edge('remote', 'repo')]])],
      ['repo', new Map([['remote', edge('repo', 'remote')]])],
    ]);
    expect(folderCycles(graph)).toEqual([
      'remote → repo → remote (remote/a.ts imports repo/b.ts; repo/a.ts imports remote/b.ts)',
    ]);
  });

  it('finds none where imports only go down', () => {
    const graph = new Map([
      ['cilium', new Map([['remote', edge('cilium', 'remote')]])],
      ['repo', new Map([['remote', edge('repo', 'remote')]])],
    ]);
    expect(folderCycles(graph)).toEqual([]);
  });
});
