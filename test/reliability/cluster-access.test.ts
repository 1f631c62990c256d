import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import type { ClusterConfig, WorldConfig } from '../../src/config/world-config.js';
import { handleClusterCommand } from '../../src/conversation/handle-cluster-command.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createClusterService } from '../../src/service/index.js';
import { systemClock } from '../../src/system-clock.js';
import { loadExampleWorld } from '../support/example-world.js';
import { labMs } from '../support/lab-time.js';
import { startInProcessWorker } from '../support/start-in-process-worker.js';
import { waitFor } from '../support/wait-for.js';

/** The world as configured: dev for its own group in its own channel, prod for Bob in #prod. */
function worldWith(
  base: WorldConfig,
  dev: Partial<ClusterConfig>,
  prod: Partial<ClusterConfig>,
): WorldConfig {
  return {
    ...base,
    clusters: {
      dev: { ...base.clusters.dev!, ...dev },
      prod: { ...base.clusters.prod!, ...prod },
    },
  };
}

/**
 * The bot's command handler and its worker's processor in-process, against real Redis and a real
 * BullMQ worker; Slack is a recording poster and user groups a map the test edits.
 */
async function startBot(groups: Map<string, string[]>) {
  const lab = await startInProcessWorker('cluster-access', { groups });
  const command = (world: WorldConfig, text: string, userId: string, channelId: string) =>
    handleClusterCommand(
      { text, userId, channelId },
      {
        marks: MRKDWN,
        world,
        service: createClusterService({
          ...lab,
          world,
          metrics: createMetrics(),
          clock: systemClock,
        }),
      },
    ).then((reply) => reply.text);
  return {
    ...lab,
    command,
    async outcomeOf(jobId: string) {
      for (;;) {
        const record = await lab.records.get(jobId);
        if (record?.outcome) return record.outcome;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

let base: WorldConfig;
let bot: Awaited<ReturnType<typeof startBot>> | undefined;

beforeEach(async () => {
  base = await loadExampleWorld();
});
afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

describe('per-cluster operators and command channels', { timeout: labMs(60_000) }, () => {
  it('at command time: each cluster only for its operators, only from its channels; nothing is queued otherwise', async () => {
    // Global: operators Alice, Bob, S0PLATFORM; channel #ops. Dev keeps them; prod: Bob, in #prod.
    const world = worldWith(base, {}, { operators: ['U0BOB'], commandChannels: ['C0PROD'] });
    bot = await startBot(new Map([['S0PLATFORM', ['U0DAVE']]]));
    const { command } = bot;
    expect(await command(world, 'verify prod', 'U0ALICE', 'C0PROD')).toBe(
      '⛔ <@U0ALICE> is not an operator of prod (clusters.prod.operators, else access.operators in its config), so nothing was run.',
    );
    expect(await command(world, 'cilium prod', 'U0DAVE', 'C0PROD')).toMatch(
      /^⛔ <@U0DAVE> is not an operator of prod/,
    );
    expect(await command(world, 'verify prod', 'U0BOB', 'C0OPS')).toBe(
      '⛔ /cluster commands for prod are not accepted in <#C0OPS>. Use <#C0PROD>.',
    );
    expect(await command(world, 'verify dev', 'U0ALICE', 'C0PROD')).toBe(
      '⛔ /cluster commands for dev are not accepted in <#C0PROD>. Use <#C0OPS>.',
    );
    expect(await command(world, 'verify dev', 'U0MALLORY', 'C0OPS')).toMatch(
      /^⛔ You are not an operator of cluster-bot/,
    );
    expect(await command(world, 'status', 'U0ALICE', 'C0RANDOM')).toBe(
      '⛔ /cluster is not accepted in this channel. Use <#C0OPS>, <#C0PROD>.',
    );
    // Nothing was queued by any of that: the first accepted command gets job #1.
    expect(await command(world, 'verify prod', 'U0BOB', 'C0PROD')).toMatch(
      /^Queued as job #1: `verify prod`/,
    );
    expect(await command(world, 'verify dev', 'U0DAVE', 'C0OPS')).toMatch(/^Queued as job #2: `verify dev`/);
    // Questions that name no cluster: any operator, from any command channel.
    expect(await command(world, 'jobs', 'U0BOB', 'C0PROD')).not.toMatch(/^⛔/);
    expect(await command(world, 'status', 'U0ALICE', 'C0PROD')).not.toMatch(/^⛔/);
  });

  it('at job start: a requester who left the group, or a channel the reloaded config no longer allows, ends the job with the reason in its thread', async () => {
    const groups = new Map([['S0DEVOPS', ['U0DAVE']]]);
    bot = await startBot(groups);
    const accepted = worldWith(base, { operators: ['U0BOB', 'S0DEVOPS'] }, {});
    // Both accepted by the bot while no worker runs (all busy, say).
    expect(await bot.command(accepted, 'cilium dev', 'U0DAVE', 'C0OPS')).toMatch(/^Queued as job #1/);
    expect(await bot.command(accepted, 'verify prod', 'U0BOB', 'C0OPS')).toMatch(/^Queued as job #2/);
    // Then Dave leaves the group, and the worker that takes the jobs runs a config where prod moved to #prod.
    groups.set('S0DEVOPS', []);
    await bot.startWorker(
      worldWith(base, { operators: ['U0BOB', 'S0DEVOPS'] }, { commandChannels: ['C0PROD'] }),
    );

    expect(await bot.outcomeOf('job-1')).toBe('cancelled');
    expect(await bot.outcomeOf('job-2')).toBe('cancelled');
    const thread = (jobNumber: number) =>
      bot!.posts.filter((post) => post.text.includes(`job #${jobNumber} `));
    // The outcome is settled before the final report leaves (by design): wait for the report.
    for (const number of [1, 2]) {
      const report = `❌ job #${number} cancelled: refused when the job started`;
      await waitFor(`job #${number}'s final report`, () =>
        thread(number).some((post) => post.text === report),
      );
    }
    // The reason keeps its live mention and channel links (the bot's own words, not escaped).
    const texts = bot.posts.map((post) => post.text);
    expect(texts).toContain(
      '⛔ <@U0DAVE> is not an operator of dev (clusters.dev.operators, else access.operators in its config), so nothing was run.',
    );
    expect(texts).toContain('⛔ /cluster commands for prod are not accepted in <#C0OPS>. Use <#C0PROD>.');
    // Nothing ran anywhere, the lease of dev is free again, and the audit trail says why.
    expect(bot.shell.calls).toEqual([]);
    expect(await bot.clusterLeases.holder('dev')).toBeNull();
    const refused = (await bot.audit.recent(20)).filter((entry) => entry.action === 'refused');
    expect(refused.map((entry) => [entry.jobId, entry.who])).toEqual(
      expect.arrayContaining([
        ['job-1', 'U0DAVE'],
        ['job-2', 'U0BOB'],
      ]),
    );
  });
});
