import { describe, expect, it } from 'vitest';
import { compareGateAlerts } from '../../src/jobs/compare-gate-alerts.js';

const HOUR = 3_600_000;

describe('scheduled verify alert transitions', () => {
  it('alerts on pass → fail, stays quiet within the repeat interval, reminds after it, and reports recovery once', () => {
    const first = compareGateAlerts({}, { 'nodes Ready': 'k3s-dev-2 NotReady' }, 0, HOUR);
    expect(first.failing).toEqual([{ gate: 'nodes Ready', observed: 'k3s-dev-2 NotReady', repeat: false }]);
    const quiet = compareGateAlerts(first.next, { 'nodes Ready': 'k3s-dev-2 NotReady' }, HOUR - 1, HOUR);
    expect(quiet.failing).toEqual([]);
    const reminder = compareGateAlerts(quiet.next, { 'nodes Ready': 'k3s-dev-2 NotReady' }, HOUR, HOUR);
    expect(reminder.failing).toEqual([{ gate: 'nodes Ready', observed: 'k3s-dev-2 NotReady', repeat: true }]);
    const recovered = compareGateAlerts(reminder.next, {}, HOUR + 1, HOUR);
    expect(recovered).toEqual({ failing: [], recovered: ['nodes Ready'], next: {} });
    expect(compareGateAlerts(recovered.next, {}, HOUR + 2, HOUR).recovered).toEqual([]);
  });
});
