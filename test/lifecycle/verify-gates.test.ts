import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import { buildPlan } from '../../src/lifecycle/plans/build-plan.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { createMemoryCheckpoints } from '../support/memory-checkpoints.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

async function verify(prepare: (kube: ReturnType<typeof createMemoryKube>) => void) {
  const kube = createMemoryKube();
  prepare(kube);
  const clock = createInstantClock();
  const reporter = createRecordingReporter();
  const started = clock.now();
  const result = await runPlan(buildPlan({ verb: 'verify', cluster: 'dev' }, world), {
    jobId: 'v',
    world,
    shell: createScriptedShell(() => undefined),
    kube: kube.kube,
    clock,
    checkpoints: createMemoryCheckpoints(),
    approvals: createMemoryApprovalDesk().desk,
    reporter,
    signal: new AbortController().signal,
  });
  const alerts = reporter.texts().filter((text) => text.startsWith('gate failed: '));
  return { result, alerts, waitedMs: clock.now() - started, texts: reporter.texts() };
}

describe('verify gates', () => {
  it('pass on a healthy cluster without waiting', async () => {
    const { result, alerts, waitedMs, texts } = await verify(() => {});
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
    expect(waitedMs).toBe(0);
    expect(texts).toContain('1-verify ✓ nodes Ready: 3/3 nodes Ready');
  });

  it('alert once per failing gate with what they saw, after waiting the gate timeout', async () => {
    const { result, alerts, waitedMs } = await verify((kube) => {
      kube.setNodeReady('k3s-dev-2', false, 'KubeletNotReady');
      kube.patchDaemonSet('kube-system/cilium', { maxUnavailable: 2 });
      kube.daemonSets.set('kube-system/kube-proxy', {
        ...kube.daemonSets.get('kube-system/cilium')!,
        name: 'kube-proxy',
      });
      kube.deployments.set('kube-system/hubble-relay', {
        name: 'hubble-relay',
        namespace: 'kube-system',
        replicas: 1,
        available: 0,
      });
    });
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts).toEqual([
      'gate failed: nodes Ready: k3s-dev-2 NotReady (KubeletNotReady)',
      'gate failed: Hubble relay up: hubble-relay 0/1 available',
      'gate failed: no kube-proxy: kube-proxy present: DaemonSet kube-system/kube-proxy',
      'gate failed: Cilium maxUnavailable 1: maxUnavailable 2',
    ]);
    expect(waitedMs).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('a gate that recovers within the timeout passes', async () => {
    let reads = 0;
    const { result, alerts } = await verify((kube) => {
      kube.setNodeReady('k3s-dev-3', false);
      const listNodes = kube.kube.listNodes;
      kube.kube.listNodes = async () => {
        if (++reads === 3) kube.setNodeReady('k3s-dev-3', true);
        return listNodes();
      };
    });
    expect(result).toMatchObject({ outcome: 'succeeded' });
    expect(alerts).toEqual([]);
  });

  it('an unreachable API is reported as such, not as a crash', async () => {
    const { result, alerts } = await verify((kube) => kube.setUnreachable(true));
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(alerts[0]).toBe(
      'gate failed: nodes Ready: could not read the Kubernetes API: connect ECONNREFUSED 127.0.0.1:6443',
    );
  });
});
