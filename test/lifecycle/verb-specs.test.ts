import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import {
  isMutating,
  LIFECYCLE_VERB_SPECS,
  LIFECYCLE_VERBS,
} from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const TARGET = { cluster: 'dev', node: 'k3s-dev-2', 'node or cluster': 'dev' } as const;
/** The words a verb needs after its target. */
const ARGUMENTS: Readonly<Record<string, string>> = { restore: ' etcd-snapshot-k3s-dev-1-1764633600' };

describe('the lifecycle verb specs', () => {
  it('are filed under their own verb, each with its help', () => {
    for (const [verb, spec] of Object.entries(LIFECYCLE_VERB_SPECS)) {
      expect(spec.verb).toBe(verb);
      expect(spec.help.length, verb).toBeGreaterThan(0);
      for (const line of spec.help) expect(line, verb).toMatch(new RegExp(`^\`${verb}\\b`));
    }
  });

  it('say which verbs change a cluster: those take the lease and --queue, the checks neither', () => {
    const mutating = LIFECYCLE_VERBS.filter((verb) => {
      const text = `${verb} ${TARGET[LIFECYCLE_VERB_SPECS[verb].target]}${ARGUMENTS[verb] ?? ''}`;
      const parsed = parseLifecycleCommand(text, world);
      if (!parsed.ok) throw new Error(parsed.error);
      const queued = parseLifecycleCommand(`${text} --queue`, world);
      expect(queued.ok, `${text} --queue`).toBe(isMutating(parsed.command));
      return isMutating(parsed.command);
    });
    expect(mutating).toEqual(['up', 'reprovision', 'cilium', 'packages', 'restore', 'upgrade']);
    expect(isMutating({ verb: 'plan', cluster: 'dev', of: { verb: 'up', cluster: 'dev' } })).toBe(false);
  });
});
