import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab({ sim: { scenario: { nodeNotReady: 'k3s-dev-2' } } });
});
afterAll(async () => {
  await lab?.stop();
});

describe('a standalone verify reads the state once and reports it at once', () => {
  it(
    'with a node NotReady: one read of the nodes, the gate fails and its alert goes out, without waiting out the gate timeout',
    async () => {
      // Ten minutes: a verify that waited for the node would outlast this test's own timeout.
      const world = lab.worldWith({ timeouts: { gate: '10m' } });
      const before = lab.sim.requests.length;
      const job = lab.startJob('verify dev', { world });
      const result = await job.runUntilDone();

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      const failed = job.reporter.failedStep();
      expect(failed?.stepId).toBe('1-verify');
      expect(failed?.failure?.code).toBe('GATE_FAILED');
      expect(failed?.failure?.message).toContain('nodes Ready: k3s-dev-2 NotReady');
      expect(job.reporter.events).toContainEqual(
        expect.objectContaining({
          type: 'gate-failed',
          stepId: '1-verify',
          gate: 'nodes Ready',
          observed: expect.stringContaining('k3s-dev-2 NotReady'),
        }),
      );
      // One read of the API: the nodes listed once, nothing watched.
      const requests = lab.sim.requests.slice(before);
      expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/nodes')).toHaveLength(1);
      expect(requests.filter((r) => /(^|&)watch=(true|1)/.test(r.query))).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
