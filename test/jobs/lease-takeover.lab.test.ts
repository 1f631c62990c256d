import { afterEach, describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../src/jobs/lease-lost-error.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';
import { healthyHosts } from '../support/healthy-hosts.js';
import { labMs } from '../support/lab-time.js';
import { listHostsOutput } from '../support/list-hosts-output.js';
import type { ShellCall } from '../support/scripted-shell.js';
import { type InProcessWorker, startInProcessWorker } from '../support/start-in-process-worker.js';
import { waitFor } from '../support/wait-for.js';

/** A mutating dev command: one playbook step, no approval. */
const PACKAGES_DEV: LifecycleCommand = { verb: 'packages', cluster: 'dev', node: 'k3s-dev-1' };
const STEP = '1-node-baseline-packages';
const PLAY_LINES = ['TASK [packages : Install the baseline packages] ****', 'changed: [k3s-dev-1]'];

let lab: InProcessWorker | undefined;

afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

/** The playbook's real runs (not its previews) each hold until the test lets that one go. */
function slowPlaybooks() {
  const gates: Array<() => void> = [];
  const runs: Array<Promise<void>> = [];
  const isRun = (call: ShellCall) =>
    call.argv[0] === 'ansible-playbook' &&
    !['--syntax-check', '--list-hosts', '--list-tasks', '--check'].some((flag) => call.argv.includes(flag));
  return {
    replies: (call: ShellCall) => {
      if (call.argv.includes('--list-hosts'))
        return {
          stdout: listHostsOutput('node-baseline.yml', [
            { pattern: 'k3s_dev', name: 'node baseline', hosts: ['k3s-dev-1'] },
          ]),
        };
      if (!isRun(call)) return healthyHosts(call);
      runs.push(new Promise<void>((resolve) => gates.push(resolve)));
      return { hold: runs.at(-1), stdout: PLAY_LINES };
    },
    started: (count: number) =>
      waitFor(`${count} playbook runs started`, async () => (runs.length >= count ? true : undefined)),
    finish: (index: number) => gates[index]!(),
  };
}

describe('two starts of the same job (a stalled job handed out again while its first worker is alive)', () => {
  it('the second takes the lease over; the first, its renew refused, stops without speaking, checkpointing or settling', async () => {
    const playbooks = slowPlaybooks();
    const { logger, lines } = captureLogger(createRedactor(), 'warn');
    lab = await startInProcessWorker('lease-takeover', {
      replies: playbooks.replies,
      leaseRenewMs: labMs(50),
      logger,
    });
    const id = await lab.submit(PACKAGES_DEV);
    const job = (await lab.queue.queue.getJob(id))!;
    /** The checkpoint of the plan's one step (its only field beside the job's facts). */
    const stepStatus = async () =>
      Object.entries(await lab!.redis.hgetall(lab!.keys.steps(id)))
        .filter(([field]) => field === STEP)
        .map(([field, raw]) => `${field} ${(JSON.parse(raw) as { status: string }).status}`);

    const first = lab.processor()(job, undefined);
    await playbooks.started(1).catch((error) => {
      console.log(JSON.stringify([lab!.shell.calls, lab!.texts()], null, 1));
      throw error;
    });
    const second = lab.processor()(job, undefined);
    await playbooks.started(2);
    const attempt = await lab.redis.get(lab.keys.leaseAttempt('dev'));

    // The first's next renew finds the lease another start's: it says so and stops following.
    await waitFor('the first start told it lost its lease', async () =>
      lines.some((line) => line.includes('lease lost to another start of this job')) ? true : undefined,
    );
    // Its playbook ends now, while the second still runs: what it would record is fenced out.
    playbooks.finish(0);
    await expect(first).rejects.toBeInstanceOf(LeaseLostError);
    expect(await stepStatus()).toEqual([`${STEP} running`]);
    expect(await lab.clusterLeases.holder('dev')).toBe(id);
    expect(await lab.redis.get(lab.keys.leaseAttempt('dev'))).toBe(attempt);

    playbooks.finish(1);
    expect(await second).toBe('succeeded');
    expect(await stepStatus()).toEqual([`${STEP} succeeded`]);
    expect(await lab.clusterLeases.holder('dev')).toBeNull();
    const outcomes = (await lab.audit.recent(50)).filter(
      (entry) => entry.jobId === id && entry.action === 'outcome',
    );
    expect(outcomes.map((entry) => entry.what.split(':')[0])).toEqual(['succeeded']);
    await waitFor('the final report', async () =>
      lab!.texts().some((text) => text.startsWith('✅ job #1')) ? true : undefined,
    );
    // The thread shows the step's output, its reply and the report once: the first start said nothing after the takeover.
    const shown = (start: string) => lab!.texts().filter((text) => text.startsWith(start)).length;
    expect([shown('```TASK [packages'), shown('✅ node-baseline.yml'), shown('✅ job #1 succeeded')]).toEqual(
      [1, 1, 1],
    );
    expect(lab.texts().filter((text) => /failed|cancel/.test(text))).toEqual([]);
  });

  it('a lease that lapsed with nobody taking it (Redis away, a slow worker) is taken again by its renew; one another start took is not', async () => {
    lab = await startInProcessWorker('lease-lapsed');
    const first = { jobId: 'job-1', attempt: 'first' };
    expect(await lab.clusterLeases.acquire('dev', first, 20)).toBe(true);
    await waitFor('the lease lapsed', async () =>
      (await lab!.clusterLeases.holder('dev')) === null ? true : undefined,
    );

    expect(await lab.clusterLeases.renew('dev', first, 60_000)).toBe(true);
    expect(await lab.clusterLeases.holder('dev')).toBe('job-1');
    expect(await lab.clusterLeases.acquire('dev', { jobId: 'job-1', attempt: 'second' }, 60_000)).toBe(true);
    expect(await lab.clusterLeases.renew('dev', first, 60_000)).toBe(false);
    expect(await lab.redis.get(lab.keys.leaseAttempt('dev'))).toBe('second');
  });
});
