import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSlackGateAlerts } from '../../src/bot/create-slack-gate-alerts.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { ClusterBotError } from '../../src/errors.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { runScheduledVerify } from '../../src/jobs/run-scheduled-verify.js';
import type { KubeGateway } from '../../src/lifecycle/ports/kube-gateway.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { loadExampleWorld } from '../support/example-world.js';
import { answerK3sServer } from '../support/k3s-server-replies.js';
import { createInstantClock } from '../support/manual-clock.js';
import { createMemoryHostKeyPins } from '../support/memory-host-key-pins.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createMemoryKubeconfigs } from '../support/memory-kubeconfigs.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { createScriptedShell } from '../support/scripted-shell.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const cleanups = cleanupAfterEach();

function setup(kube: () => KubeGateway) {
  const { prefix, cleanup } = uniquePrefix('uninitialised');
  const redis = new Redis(REDIS_URL);
  cleanups.push(cleanup, async () => redis.disconnect());
  const posts: string[] = [];
  const keys = redisKeys(prefix);
  const run = () =>
    runScheduledVerify('prod', {
      world,
      redis,
      keys,
      alerts: createSlackGateAlerts(
        {
          post: async (message) => {
            posts.push(message.text);
            return '1.0';
          },
          update: async () => undefined,
          upload: async () => undefined,
          permalink: () => 'http://127.0.0.1/thread',
        },
        'C0ALERTS',
      ),
      openShell: () => createScriptedShell((call) => answerK3sServer(call)),
      kubeFor: kube,
      kubeconfigs: createMemoryKubeconfigs().keeper,
      hostKeyPins: createMemoryHostKeyPins().pins,
      clock: createInstantClock(),
      logger: createLogger({ level: 'silent', redact: createRedactor() }),
      redact: createRedactor(),
      metrics: createMetrics(),
    });
  const lastVerify = async () => JSON.parse((await redis.get(keys.lastVerify('prod'))) ?? '{}');
  /** What a `verify prod` job that passed leaves behind. */
  const verifyJobPassed = () =>
    redis.set(
      keys.lastVerify('prod'),
      JSON.stringify({ outcome: 'succeeded', at: 1, jobNumber: 3, summary: 'ok' }),
    );
  return { run, posts, lastVerify, verifyJobPassed };
}

describe('scheduled verify of a production cluster not initialised yet', () => {
  it('is a state shown by status, not an alert, while its API is silent or has no node', async () => {
    const unreachable: KubeGateway = {
      ...createMemoryKube([]).kube,
      listNodes: async () => {
        throw new ClusterBotError('KUBE_UNREACHABLE', 'connect ECONNREFUSED 127.0.0.1:1');
      },
    };
    const t = setup(() => unreachable);
    expect(await t.run()).toBe('uninitialised');
    expect(await t.run()).toBe('uninitialised');
    expect(t.posts).toEqual([]);
    expect(await t.lastVerify()).toMatchObject({
      outcome: 'uninitialised',
      summary: expect.stringContaining('prod is not initialised yet (its API does not answer'),
    });

    const empty = setup(() => createMemoryKube([]).kube);
    expect(await empty.run()).toBe('uninitialised');
    expect(empty.posts).toEqual([]);
  });

  it('a verify job that once passed proves it formed: a silent API then alerts', async () => {
    const t = setup(() => createMemoryKube([]).kube);
    await t.verifyJobPassed();
    expect(await t.run()).toBe('failed');
    expect(t.posts).toContainEqual(
      expect.stringMatching(/^🚨 prod: gate \*.+\* failed \(scheduled verify\)/),
    );
  });

  it('once it has formed, the same silence alerts like any verify failure', async () => {
    let kube = createMemoryKube(['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3']).kube;
    const t = setup(() => kube);
    expect(await t.run()).toBe('succeeded');
    kube = createMemoryKube([]).kube;
    expect(await t.run()).toBe('failed');
    expect(t.posts).toContainEqual(
      expect.stringMatching(/^🚨 prod: gate \*.+\* failed \(scheduled verify\)/),
    );
  });
});
