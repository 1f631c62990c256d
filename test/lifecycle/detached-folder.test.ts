import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { detachedFolder, nodeDetachedFolder } from '../../src/lifecycle/remote/detached-folder.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

describe('a detached command’s folder', () => {
  it('is named by the job’s id and its record’s folder tag, on the ops host and on a node', () => {
    const ctx = { world, jobId: 'job-7', folderTag: '0a1b2c3d4e5f', stepId: '2-cilium' };
    expect(detachedFolder(ctx)).toBe(`${world.ops.repoPath}/.cache/cluster-bot/job-7-0a1b2c3d4e5f/2-cilium`);
    expect(nodeDetachedFolder(ctx)).toBe('/var/lib/cluster-bot/job-7-0a1b2c3d4e5f/2-cilium');
  });

  it('of a job recorded before folder tags keeps the bare id its running command was started under', () => {
    const ctx = { world, jobId: 'job-7', folderTag: undefined, stepId: '2-cilium' };
    expect(detachedFolder(ctx)).toBe(`${world.ops.repoPath}/.cache/cluster-bot/job-7/2-cilium`);
    expect(nodeDetachedFolder(ctx)).toBe('/var/lib/cluster-bot/job-7/2-cilium');
  });

  it('is refused when the tag could leave the job’s folder', () => {
    const ctx = { world, jobId: 'job-7', folderTag: '../../etc', stepId: '2-cilium' };
    expect(() => detachedFolder(ctx)).toThrow(/cannot name a folder/);
  });
});
