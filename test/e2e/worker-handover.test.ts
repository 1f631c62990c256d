import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobFeedReader } from '../../src/jobs/read-job-feed.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { labMs } from '../support/lab-time.js';
import { REDIS_URL } from '../support/redis-prefix.js';
import type { BotProcess } from '../support/start-bot-process.js';
import { QUICK_STALL_ENV, type SlackLab, startSlackLab } from '../support/start-slack-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const started = (worker: BotProcess) => (worker.output().match(/"msg":"job started"/g) ?? []).length;

/** Real node-baseline.yml runs: the argv log of the ops host, and the playbook's own log of finished hosts. */
const baselineRuns = async (world: SlackLab) => ({
  started: (await world.playbookRuns()).filter((line) =>
    line.startsWith('ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml'),
  ).length,
  ended: (await world.labEvents()).filter((line) => line.startsWith('node-baseline.yml ')),
});
/** The resumed step's word in the thread: it followed the run the first worker started. */
const FOLLOWED =
  /worker restarted; (following the running `node-baseline\.yml` from line \d+|`node-baseline\.yml` ended while no worker followed it; its output from line \d+)/;

/** The events the job page shows for the job whose board says `#N`. */
async function feedEvents(world: SlackLab, boardText: string) {
  const redis = new Redis(REDIS_URL);
  try {
    const jobId = `job-${/#(\d+)/.exec(boardText)?.[1]}`;
    return await createJobFeedReader(redis, redisKeys(world.processEnv.REDIS_PREFIX ?? '')).events(jobId);
  } finally {
    redis.disconnect();
  }
}

async function startLongJob(signal: 'SIGTERM' | 'SIGKILL') {
  lab = await startSlackLab({
    workers: 2,
    labVars: { lab_sleep_seconds: 6 },
    env: { SHUTDOWN_GRACE_SECONDS: '1', ...QUICK_STALL_ENV },
  });
  const { slack, driver, workers } = lab;
  await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
  const first = await slack.waitFor(() => workers.find((w) => started(w) > 0), { timeoutMs: 30_000 });
  const other = workers.find((w) => w !== first)!;
  const root = await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('⏳')), {
    timeoutMs: 30_000,
  });
  // Mid-playbook: its run was started (the ops host's argv log has it), and it sleeps in its report task.
  const world = lab;
  await waitFor('node-baseline.yml to start', async () => (await baselineRuns(world)).started === 1, {
    timeoutMs: 30_000,
  });
  // Its runner is up (it wrote its pid): the start is done, the playbook runs detached.
  const detached = join(world.repo.root, '.cache/cluster-bot');
  await waitFor('the detached runner', async () =>
    (await readdir(detached, { recursive: true })).some((path) => path.endsWith('/pid')),
  );
  // Only the first worker has run the job's commands so far: these connections are its own.
  const used = [...(await world.ops.botConnections()), ...(await world.nodes.botConnections())];
  first.child.kill(signal);
  const code = await first.exited;
  return { slack, first, other, root, code, used };
}

// A stalled job is noticed by BullMQ within lockDuration + stalledInterval (QUICK_STALL_ENV: 15 s).
describe('several workers on one Redis', { timeout: labMs(180_000) }, () => {
  it('SIGTERM mid-playbook: the worker exits 0 after its grace period, the playbook finishes, another worker completes the job', async () => {
    const { slack, other, root, code, used } = await startLongJob('SIGTERM');
    expect(code).toBe(0);
    // Its SSH connections were ended by the worker before it exited (a disconnect message each), not dropped.
    expect(used.length).toBeGreaterThan(0);
    await waitFor('sshd to log the worker’s disconnects', async () => {
      const said = [...(await lab!.ops.disconnectedByClient()), ...(await lab!.nodes.disconnectedByClient())];
      return used.every((each) => said.includes(each.clientPort));
    });
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 120_000,
      description: 'the job finished by the other worker',
    });
    expect(started(other)).toBe(1);
    const thread = slack
      .replies('C0OPS', root.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toMatch(FOLLOWED);
    expect(thread).not.toContain('running it again');
    // Started once and ended once: the worker's exit did not end it, and the next one did not redo it.
    expect(await baselineRuns(lab!)).toEqual({ started: 1, ended: ['node-baseline.yml k3s-dev-1'] });
  });

  it('SIGKILL mid-playbook: the job goes stalled, another worker resumes it, no job runs twice at once', async () => {
    const { slack, other, root } = await startLongJob('SIGKILL');
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 120_000,
      description: 'the job finished by the other worker',
    });
    expect(started(other)).toBe(1);
    expect(slack.messages('C0OPS')).toHaveLength(1);
    const thread = slack
      .replies('C0OPS', root.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toMatch(FOLLOWED);
    expect(thread).not.toContain('running it again');
    // Started once and ended once: the killed worker's playbook went on, the next worker followed it.
    expect(await baselineRuns(lab!)).toEqual({ started: 1, ended: ['node-baseline.yml k3s-dev-1'] });
    // The job page's data (its events feed) has the re-attach too, under its step.
    const notes = (await feedEvents(lab!, root.text)).flatMap(({ event }) =>
      event.type === 'note' ? [event.text] : [],
    );
    expect(notes).toContainEqual(expect.stringMatching(FOLLOWED));
    // Its end for good removed its detached folder on the ops host (its output is in the job's log).
    const detached = join(lab!.repo.root, '.cache/cluster-bot');
    await waitFor('the job’s detached folder pruned', async () =>
      (await readdir(detached)).length === 0 ? true : undefined,
    );
  });
});
