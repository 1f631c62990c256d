import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { runSteps } from '../support/run-steps.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const step = (id: string): Step => ({
  id,
  title: id,
  target: 'dev',
  run: async () => ({ status: 'succeeded', summary: 'done' }),
});

describe("a finished plan's summary", () => {
  it('counts its steps in words that read right for one and for several', async () => {
    const one = await runSteps({ world, steps: [step('1-a')] });
    const three = await runSteps({ world, steps: [step('1-a'), step('2-b'), step('3-c')] });
    expect(one.result).toMatchObject({ outcome: 'succeeded', summary: 'its one step done' });
    expect(three.result).toMatchObject({ outcome: 'succeeded', summary: 'all 3 steps done' });
  });
});
