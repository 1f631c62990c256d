import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
let names: Set<string>;
beforeAll(async () => {
  world = await loadExampleWorld();
  names = new Set([
    ...Object.keys(world.clusters),
    ...Object.values(world.clusters).flatMap((c) => c.nodes.map((n) => n.name)),
  ]);
});

const HOSTILE_PIECES = [
  '; rm -rf /',
  '$(touch /tmp/pwned)',
  '`id`',
  '|| true',
  '&& curl x',
  '-e @/etc/shadow',
  '--extra-vars=@/etc/shadow',
  '-e',
  '../../etc/passwd',
  '"',
  "'",
  '\n',
  '\0',
  '>',
  'k3s-dеv-1', // Cyrillic е
  'k3s‐dev‐1', // Unicode hyphens
  'ｋ3s-dev-1', // fullwidth k
  'K3S-DEV-1',
  'x'.repeat(10_000),
  '',
];
const VERBS = ['up', 'reprovision', 'cilium', 'verify', 'packages', 'health', 'plan up'];

describe('hostile text in every argument of every command', () => {
  it('is refused before a job exists unless every word is a name from the config', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VERBS),
        fc.array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string(), fc.string({ unit: 'binary' })), {
          minLength: 1,
          maxLength: 4,
        }),
        (verb, pieces) => {
          const argument = pieces.join('');
          const text = `${verb.replace('plan ', '')} ${argument}`;
          const parsed = parseLifecycleCommand(text, world);
          if (!parsed.ok) return;
          // Whatever was accepted names only configured clusters and nodes, so every argv the plan
          // builds is made of config values and literals, never of what the user typed.
          const command = parsed.command;
          expect(names.has(command.cluster)).toBe(true);
          if ('node' in command && command.node !== undefined) expect(names.has(command.node)).toBe(true);
          const plan = (() => {
            try {
              return buildPlan(command, world);
            } catch {
              return undefined;
            }
          })();
          for (const step of plan?.steps ?? []) {
            for (const piece of pieces.filter(
              (p) => p.trim() !== '' && !names.has(p.trim()) && !p.startsWith('--'),
            )) {
              expect(step.commandLine ?? '').not.toContain(piece.trim());
            }
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses each classic attack with a reason', () => {
    for (const piece of HOSTILE_PIECES) {
      for (const verb of ['reprovision', 'packages', 'up', 'cilium', 'health']) {
        const parsed = parseLifecycleCommand(`${verb} ${piece}`, world);
        expect(parsed.ok, `${verb} ${JSON.stringify(piece.slice(0, 30))}`).toBe(false);
      }
    }
  });
});
