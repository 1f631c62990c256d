import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** A detached step that had nothing to start: the job's end still prunes its folders. */
const nothingToStart: Step = {
  id: '1-nothing',
  title: 'nothing to start',
  target: 'dev',
  detached: true,
  run: async () => ({ status: 'succeeded', summary: 'nothing to start' }),
};

describe('pruning a job’s detached folders at its end', () => {
  it('never fails a job whose record’s folder tag cannot name a folder: it ends as it did, nothing pruned', async () => {
    const shell = createScriptedShell(() => undefined);
    const { result } = await runSteps({
      world,
      shell,
      steps: [nothingToStart],
      folderTag: '../other-job',
      pruneDetachedOlderThanMinutes: 60,
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(shell.prunes).toEqual([]);
  });
});
