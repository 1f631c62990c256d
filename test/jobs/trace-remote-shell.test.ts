import { describe, expect, it } from 'vitest';
import { traceRemoteShell } from '../../src/jobs/processor/trace-remote-shell.js';
import type { SshTarget } from '../../src/lifecycle/ports/remote-shell.js';
import { NO_TRACING } from '../../src/tracing/job-tracing.js';
import { createScriptedShell } from '../support/scripted-shell.js';

const NODE: SshTarget = {
  label: 'k3s-dev-1',
  host: '127.0.0.1',
  port: 22,
  user: 'ops',
  privateKeyPath: '/keys/ops',
  hostKey: { fingerprint: 'SHA256:bm9kZS1rZXk' },
};

describe('a traced run shell', () => {
  // A node's detached folders are root's alone: probed without sudo, a running command looks never
  // started, and a resumed step would start it again.
  it('probes a detached folder as the step asks: under its runAs, for runs started since its time', async () => {
    const shell = createScriptedShell(() => undefined);
    const folder = '/var/lib/cluster-bot/job-1/2-uninstall';
    shell.detached.set(folder, 'running');
    shell.startedAt.set(folder, 2_000);
    shell.runAs.set(folder, ['sudo', '-n']);
    const run = NO_TRACING.startRun({
      jobId: 'job-1',
      number: 1,
      command: 'uninstall',
      cluster: 'dev',
      attempt: 0,
    });
    const traced = traceRemoteShell(shell, run, (text) => text);
    expect(await traced.probeDetached(NODE, folder, 1_000, ['sudo', '-n'], 1_000)).toBe('running');
    expect(await traced.probeDetached(NODE, folder, 1_000, [], 1_000)).toBe('none');
    expect(await traced.probeDetached(NODE, folder, 1_000, ['sudo', '-n'], 3_000)).toBe('none');
  });
});
