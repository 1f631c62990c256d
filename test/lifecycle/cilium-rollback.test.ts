import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { parseHelmHistory, pickRollbackTarget } from '../../src/lifecycle/cilium/helm-history.js';
import { describeCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const entry = (
  revision: number,
  status: string,
  chart = 'cilium-1.20.1',
  description = 'Upgrade complete',
) => ({
  revision,
  updated: '2026-11-01T10:00:00.000000000+00:00',
  status,
  chart,
  app_version: chart.slice('cilium-'.length),
  description,
});

describe('cilium --rollback and --resume-flux: words to a command', () => {
  it('reads the mode and an optional revision, and says it back the same way', () => {
    const parse = (text: string) => {
      const parsed = parseLifecycleCommand(text, world);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.command;
    };
    expect(parse('cilium dev --rollback')).toEqual({
      verb: 'cilium',
      cluster: 'dev',
      mode: { kind: 'rollback' },
    });
    expect(parse('cilium dev --rollback 12')).toEqual({
      verb: 'cilium',
      cluster: 'dev',
      mode: { kind: 'rollback', revision: 12 },
    });
    expect(parse('cilium dev --resume-flux')).toEqual({
      verb: 'cilium',
      cluster: 'dev',
      mode: { kind: 'resume-flux' },
    });
    expect(parse('cilium dev')).toEqual({ verb: 'cilium', cluster: 'dev' });
    expect(describeCommand(parse('cilium dev --rollback 12'))).toBe('cilium dev --rollback 12');
    expect(describeCommand(parse('cilium dev --resume-flux'))).toBe('cilium dev --resume-flux');
  });

  it('refuses a revision that is not a number, a revision without --rollback, and both modes at once', () => {
    const error = (text: string) => {
      const parsed = parseLifecycleCommand(text, world);
      return parsed.ok ? 'accepted' : parsed.error;
    };
    expect(error('cilium dev --rollback 2;reboot')).toBe(
      '--rollback takes a revision number from helm history, not "2;reboot"',
    );
    expect(error('cilium dev --rollback 0')).toBe(
      '--rollback takes a revision number from helm history, not "0"',
    );
    expect(error('cilium dev 3')).toMatch(/^cilium takes exactly one cluster/);
    expect(error('cilium dev --rollback --resume-flux')).toBe(
      '--rollback and --resume-flux are two different jobs: give one',
    );
    expect(error('up dev --rollback')).toBe('unknown option "--rollback" for up (up takes --queue)');
  });
});

describe('the revision a rollback goes back to', () => {
  const history = parseHelmHistory(
    JSON.stringify([
      entry(1, 'superseded', 'cilium-1.19.4'),
      entry(2, 'superseded', 'cilium-1.20.0'),
      entry(3, 'failed', 'cilium-1.20.1'),
      entry(4, 'deployed', 'cilium-1.20.1'),
    ]),
  );

  it('is the last good revision before the newest one, skipping failed ones', () => {
    const target = pickRollbackTarget(history, undefined);
    expect(target).toMatchObject({
      from: { revision: 4, chart: 'cilium-1.20.1' },
      to: { revision: 2, chart: 'cilium-1.20.0' },
    });
  });

  it('is the one asked for when the history holds it; else a refusal naming it and the revisions that exist', () => {
    expect(pickRollbackTarget(history, 1)).toMatchObject({ to: { revision: 1, appVersion: '1.19.4' } });
    expect(pickRollbackTarget(history, 9)).toBe(
      'revision 9 is not in the history of the release (revisions: 1, 2, 3, 4)',
    );
    expect(pickRollbackTarget(history, 4)).toBe(
      'revision 4 is the newest revision already (revisions: 1, 2, 3, 4)',
    );
    expect(pickRollbackTarget(parseHelmHistory(JSON.stringify([entry(1, 'deployed')])), undefined)).toBe(
      'no revision before 1 ran well to roll back to (revisions: 1)',
    );
  });

  it('is refused unasked when the newest revision is a rollback already (a second click must not roll forward)', () => {
    const rolledBack = parseHelmHistory(
      JSON.stringify([
        entry(2, 'superseded', 'cilium-1.20.0'),
        entry(3, 'superseded', 'cilium-1.20.1'),
        entry(4, 'deployed', 'cilium-1.20.0', 'Rollback to 2'),
      ]),
    );
    expect(pickRollbackTarget(rolledBack, undefined)).toBe(
      'the release is already rolled back to 2 at revision 4; name a revision to go elsewhere (revisions: 2, 3, 4)',
    );
    expect(pickRollbackTarget(rolledBack, 3)).toMatchObject({ from: { revision: 4 }, to: { revision: 3 } });
  });

  it('skips the revisions an earlier rollback moved away from', () => {
    const upgradedAgain = parseHelmHistory(
      JSON.stringify([
        entry(1, 'superseded', 'cilium-1.19.4'),
        entry(2, 'superseded', 'cilium-1.20.0'),
        entry(3, 'superseded', 'cilium-1.20.1'),
        entry(4, 'superseded', 'cilium-1.20.0', 'Rollback to 2'),
        entry(5, 'deployed', 'cilium-1.20.2'),
      ]),
    );
    expect(pickRollbackTarget(upgradedAgain, undefined)).toMatchObject({ to: { revision: 4 } });
    const rollbackFailed = parseHelmHistory(
      JSON.stringify([
        entry(2, 'superseded', 'cilium-1.20.0'),
        entry(3, 'superseded', 'cilium-1.20.1'),
        entry(4, 'failed', 'cilium-1.20.0', 'Rollback to 2'),
        entry(5, 'deployed', 'cilium-1.20.2'),
      ]),
    );
    expect(pickRollbackTarget(rollbackFailed, undefined)).toMatchObject({ to: { revision: 2 } });
  });

  it('refuses output that is not helm history JSON', () => {
    expect(() => parseHelmHistory('Error: release: not found')).toThrow(/helm history printed no JSON/);
    expect(() => parseHelmHistory('[{"status":"deployed"}]')).toThrow(/without a number/);
  });
});
