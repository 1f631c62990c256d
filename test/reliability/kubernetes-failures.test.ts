import { afterEach, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('Kubernetes API failing under a job (real client-node, kube-sim)', {
  timeout: LAB_TEST_TIMEOUT_MS,
}, () => {
  it('watch streams cut again and again mid-rollout: the watch re-lists and the rollout is followed to the end', async () => {
    lab = await startLifecycleLab({ sim: { agentReadyDelayMs: 400 } });
    const sim = lab.sim;
    let cuts = 0;
    const cutter = setInterval(() => {
      cuts += sim.cutWatches();
    }, 250);
    try {
      const result = await lab.startJob('cilium dev').runUntilDone({ approve: true });
      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    } finally {
      clearInterval(cutter);
    }
    expect(cuts).toBeGreaterThan(0);
  });

  it('an unreachable API fails verify within its deadline, saying so, with an alert per gate', async () => {
    lab = await startLifecycleLab();
    lab.sim.setUnreachable(true);
    const job = lab.startJob('verify dev');
    const started = Date.now();
    const result = await job.runUntilDone();
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    expect(Date.now() - started).toBeLessThan(60_000);
    const alerts = job.texts().filter((text) => text.startsWith('gate failed: '));
    expect(alerts.length).toBeGreaterThanOrEqual(5);
    for (const alert of alerts) expect(alert).toContain('could not read the Kubernetes API');
  });
});
