import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { removeNodeStep } from '../../src/lifecycle/node/remove-node-step.js';
import type { Step } from '../../src/lifecycle/plan/step.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

/** What the engine told the operator's log. */
type Warning = { fields: Readonly<Record<string, unknown>>; message: string };

/** A detached step that had nothing to start: the job's end still prunes its folders. */
const nothingToStart: Step = {
  id: '1-nothing',
  title: 'nothing to start',
  target: 'dev',
  detached: true,
  run: async () => ({ status: 'succeeded', summary: 'nothing to start' }),
};

describe('pruning a job’s detached folders at its end', () => {
  it('never fails a job whose record’s folder tag cannot name a folder: it ends as it did, nothing pruned, the operator told', async () => {
    const shell = createScriptedShell(() => undefined);
    const warnings: Warning[] = [];
    const { result } = await runSteps({
      world,
      shell,
      steps: [nothingToStart],
      folderTag: '../other-job',
      pruneDetachedOlderThanMinutes: 60,
      log: { warn: (fields, message) => warnings.push({ fields, message }) },
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(shell.prunes).toEqual([]);
    expect(warnings).toEqual([
      {
        fields: { host: undefined, reason: expect.any(String) },
        message: "job job-1's detached folders not pruned; a later job's end removes them once stale",
      },
    ]);
  });

  it('logs a host it could not prune (named, the reason redacted) and leaves the job’s outcome as it was', async () => {
    const shell = createScriptedShell(() => undefined);
    const warnings: Warning[] = [];
    const { result } = await runSteps({
      world,
      shell: {
        ...shell,
        pruneDetached: (target, request) =>
          target.label === 'k3s-dev-3'
            ? Promise.reject(
                new ClusterBotError(
                  'SSH_UNREACHABLE',
                  'k3s-dev-3 is unreachable as s3cret-login: connect ETIMEDOUT',
                ),
              )
            : shell.pruneDetached(target, request),
      },
      kube: createMemoryKube().kube,
      // stop k3s + delete Node runs detached on the node: the job's end prunes the ops host and k3s-dev-3.
      steps: [removeNodeStep('1-remove-node', 'k3s-dev-3')],
      pruneDetachedOlderThanMinutes: 60,
      log: { warn: (fields, message) => warnings.push({ fields, message }) },
      redact: createRedactor(['s3cret-login']),
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(shell.prunes.map((prune) => prune.label)).toEqual(['ops']);
    expect(warnings).toEqual([
      {
        fields: {
          host: 'k3s-dev-3',
          reason: expect.stringMatching(/^k3s-dev-3 is unreachable as .*: connect ETIMEDOUT$/),
        },
        message:
          "job job-1's detached folders not pruned on k3s-dev-3; a later job's end removes them once stale",
      },
    ]);
    expect(JSON.stringify(warnings)).not.toContain('s3cret-login');
  });
});
