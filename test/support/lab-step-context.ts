import { createClusterKubes } from '../../src/kube/create-cluster-kubes.js';
import type { StepContext } from '../../src/lifecycle/plan/step.js';
import { createRepoFileCache } from '../../src/lifecycle/repo/repo-file-cache.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { systemClock } from '../../src/system-clock.js';
import type { LabWorld } from './lab-world.js';
import { createMemoryHostKeyPins } from './memory-host-key-pins.js';

/**
 * One step's context on the lab, as the engine builds it: the real SSH shell to the ops host and
 * nodes, the cluster's real Kubernetes gateway; facts and reporting kept in memory. For a test of
 * one check (a precondition, a var the repo resolves) without running a whole plan. Each context is
 * a job of its own.
 */
let contexts = 0;

export function labStepContext(lab: LabWorld, cluster: string): StepContext & { progressed: string[] } {
  const kubes = createClusterKubes(lab.world, lab.dataDir, { rewatchDelayMs: 200 });
  const facts = new Map<string, unknown>();
  const progressed: string[] = [];
  return {
    // Its own job each: a detached playbook of the same job and step is never started twice.
    jobId: `job-check-${++contexts}`,
    stepId: '1-check',
    interrupted: false,
    shown: { read: async () => 0, write: async () => undefined },
    world: lab.world,
    cluster: lab.world.clusters[cluster]!,
    shell: createSshRemoteShell({ connectTimeoutMs: 3_000, keepaliveIntervalMs: 2_000 }),
    kube: kubes.kubeFor(cluster),
    kubeconfigs: kubes,
    clock: systemClock,
    signal: new AbortController().signal,
    facts: {
      get: <T>(key: string) => facts.get(key) as T | undefined,
      set: async (key, value) => {
        facts.set(key, value);
      },
    },
    progressed,
    keptHostKeys: {},
    repoFiles: createRepoFileCache(undefined, async () => {}),
    hostKeyPins: createMemoryHostKeyPins().pins,
    approvedBy: [],
    progress: async (text) => {
      progressed.push(text);
    },
    output: () => undefined,
    note: async () => undefined,
    gateFailed: async () => undefined,
  };
}
