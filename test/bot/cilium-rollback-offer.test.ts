import { describe, expect, it } from 'vitest';
import { ciliumRollbackOffer, ROLLBACK_ACTION } from '../../src/bot/cilium-rollback-offer.js';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import { handleRollbackClick } from '../../src/bot/handle-rollback-click.js';
import type { BoardStep, JobThread } from '../../src/jobs/ports/job-thread.js';
import type { AgentProgress } from '../../src/lifecycle/ports/reporter.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { createMemoryDelivery } from '../support/memory-delivery.js';
import { createRecordingPoster } from '../support/recording-poster.js';

const step = (id: string, title: string, status: BoardStep['status']): BoardStep => ({
  id,
  title,
  target: 'dev',
  disruptive: false,
  status,
});

function thread(title: string, outcome: 'failed' | 'succeeded', steps: BoardStep[]): JobThread {
  return {
    jobId: 'job-4',
    channel: 'C0OPS',
    alertsChannel: 'C0ALERTS',
    cluster: 'dev',
    threadTs: '1.1',
    opened: true,
    board: { title, jobNumber: 4, requestedBy: 'U0ALICE', steps, outcome },
  };
}

const halted = (failedId: string, failedTitle: string, title = 'cilium dev') =>
  thread(title, 'failed', [
    step(
      '1-cilium-preflight',
      'Cilium preflight',
      failedId === '1-cilium-preflight' ? 'failed' : 'succeeded',
    ),
    step('2-cilium', 'cilium.yml', failedId === '2-cilium' ? 'failed' : 'succeeded'),
    step(failedId, failedTitle, 'failed'),
  ]);

describe('the Roll back Cilium offer under a Cilium rollout', () => {
  it('is a button carrying the job, once agents may run the new revision (playbook, rollout watch or verify failed)', () => {
    const offer = ciliumRollbackOffer(halted('3-cilium-rollout', 'watch Cilium rollout'));
    expect(offer?.text).toContain('watch Cilium rollout failed');
    expect(offer?.text).toContain('`/cluster cilium dev --rollback`');
    expect(JSON.stringify(offer?.blocks)).toContain(`"action_id":"${ROLLBACK_ACTION}","value":"job-4"`);
    expect(ciliumRollbackOffer(halted('4-verify', 'verify gates'))).toBeDefined();
  });

  it('is not made when nothing reached the agents, for another command, or when the job did not fail', () => {
    expect(ciliumRollbackOffer(halted('1-cilium-preflight', 'Cilium preflight'))).toBeUndefined();
    expect(
      ciliumRollbackOffer(halted('3-cilium-rollout', 'watch Cilium rollout', 'cilium dev --rollback')),
    ).toBeUndefined();
    expect(ciliumRollbackOffer(halted('4-cilium-rollout', 'watch Cilium rollout', 'up dev'))).toBeUndefined();
    expect(
      ciliumRollbackOffer(thread('cilium dev', 'succeeded', [step('3-cilium-rollout', 'w', 'succeeded')])),
    ).toBeUndefined();
  });
});

/**
 * `cilium dev` through the real thread reporter: the rollout watch reports each agent as it comes
 * up (from the revision its node ran to the one it runs, as ciliumRolloutStep does), then verify
 * fails. Returns the Roll back buttons the thread got.
 */
async function rolloutThenFailedVerify(agents: readonly AgentProgress[]) {
  const { poster, posts } = createRecordingPoster();
  const { delivery } = createMemoryDelivery(poster);
  const reporter = createThreadReporter({
    delivery,
    // Not yet shown: the reporter posts its root message first, as a new job's does.
    thread: { ...thread('cilium dev', 'failed', []), opened: false, threadTs: undefined },
    appendLog: () => undefined,
  });
  const steps = ['2-cilium', '3-cilium-rollout', '4-verify'].map((id) => ({
    id,
    title: id,
    target: 'dev',
    disruptive: id === '2-cilium',
  }));
  await reporter.emit({ type: 'plan-started', steps, resumed: false });
  for (const [stepId, status] of [
    ['2-cilium', 'succeeded'],
    ['3-cilium-rollout', 'succeeded'],
    ['4-verify', 'failed'],
  ] as const) {
    await reporter.emit({ type: 'step-started', stepId });
    if (stepId === '3-cilium-rollout') {
      for (const agent of agents)
        await reporter.emit({ type: 'step-progress', stepId, text: `agent ${agent.pod} Ready`, agent });
    }
    await reporter.emit({ type: 'step-finished', stepId, status, durationMs: 1_000, summary: 'done' });
  }
  await reporter.emit({ type: 'plan-finished', outcome: 'failed', summary: 'verify failed' });
  await reporter.delivered();
  return posts.filter((post) => JSON.stringify(post.blocks ?? []).includes(ROLLBACK_ACTION));
}

const agent = (node: string, from: string, to: string): AgentProgress => ({
  pod: `cilium-${node}`,
  node,
  from,
  to,
  ready: true,
});

describe('the Roll back offer after a rollout that changed nothing', () => {
  it('is made once an agent reached a new ControllerRevision, not when every agent kept the one it ran', async () => {
    const nodes = ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'];
    expect(await rolloutThenFailedVerify(nodes.map((n) => agent(n, 'rev1', 'rev2')))).toHaveLength(1);
    // A change of updateStrategy only: same pod template hash, same revision, no pod recreated.
    expect(await rolloutThenFailedVerify(nodes.map((n) => agent(n, 'rev1', 'rev1')))).toEqual([]);
    // One agent moved is a change, whatever the others did.
    expect(
      await rolloutThenFailedVerify([agent('k3s-dev-1', 'rev1', 'rev1'), agent('k3s-dev-2', 'rev1', 'rev2')]),
    ).toHaveLength(1);
  });

  it('decides from the thread state, which is saved with the thread, so a resumed job offers the same', () => {
    expect(
      ciliumRollbackOffer({ ...halted('4-verify', 'verify gates'), agentsMoved: false }),
    ).toBeUndefined();
    expect(ciliumRollbackOffer({ ...halted('4-verify', 'verify gates'), agentsMoved: true })).toBeDefined();
    // No agent reported before the watch stopped (the new revision's first agent stuck): offered.
    expect(ciliumRollbackOffer(halted('3-cilium-rollout', 'watch Cilium rollout'))).toBeDefined();
  });
});

describe('handleRollbackClick', () => {
  const click = { userId: 'U0ALICE', value: 'job-4', channel: 'C0OPS', threadTs: '1.1' };

  it('asks the service with the clicker and the button value, and tells the thread which job runs the rollback', async () => {
    const { service, asked } = createFakeClusterService();
    const { poster, posts } = createRecordingPoster();
    const answer = await handleRollbackClick(click, { service, poster });
    expect(asked()).toEqual([
      { op: 'rollBackCilium', args: [{ userId: 'U0ALICE', channelId: 'C0OPS' }, 'job-4'] },
    ]);
    expect(answer).toBe('Queued as job #2: `cilium dev --rollback`. Progress goes into its thread.');
    expect(posts).toEqual([
      {
        channel: 'C0OPS',
        threadTs: '1.1',
        text: '↩️ <@U0ALICE> asked to roll back Cilium: job #2 `cilium dev --rollback`.',
      },
    ]);
  });

  it('answers a refusal to the clicker alone and posts nothing', async () => {
    const { service } = createFakeClusterService({
      rollBackCilium: async () => ({ code: 'ROLLBACK_NOT_OFFERED', why: 'not-failed', number: 4 }),
    });
    const { poster, posts } = createRecordingPoster();
    const answer = await handleRollbackClick(click, { service, poster });
    expect(answer).toMatch(/^⛔ Job #4 did not fail, so it offers no rollback; nothing was run\./);
    expect(posts).toEqual([]);
  });
});
