import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { describeReply } from '../../src/wording/describe-reply.js';
import { startServiceOnRedis } from '../support/cluster-service-on-redis.js';
import { loadExampleWorld } from '../support/example-world.js';

const ERIN = { userId: 'U0ERIN', channelId: 'C0OPS' };
const KEY = {
  fingerprint: 'SHA256:bmV3LWhvc3Qta2V5',
  keyType: 'ssh-ed25519',
  publicKey: 'AAAAC3NzaC1lZDI1NTE5AAAAIG5ldy1ob3N0LWtleQ',
};

let t: ReturnType<typeof startServiceOnRedis>;
let world: WorldConfig;
beforeEach(async () => {
  const base = await loadExampleWorld();
  world = { ...base, clusters: { dev: { ...base.clusters.dev!, operators: ['U0ERIN'] } } };
  t = startServiceOnRedis(world);
});
afterEach(async () => {
  await t.stop();
});

describe("a rebuilt node's host key kept by the bot, on real Redis", () => {
  it('is audited with its job, approver and fingerprint, and status says the mounted known_hosts still needs it', async () => {
    expect(await t.service.status(ERIN, 'dev')).toMatchObject({ clusters: [{ cluster: 'dev' }] });
    expect(describeReply(await t.service.status(ERIN, 'dev'), MRKDWN)).not.toContain('host-key pin');

    await t.hostKeyPins.keep('dev', 'k3s-dev-3', {
      ...KEY,
      jobId: 'job-12',
      approvedBy: ['U0BOB'],
      at: Date.now(),
    });

    // Every worker reads it back from Redis.
    expect(await t.hostKeyPins.read('dev')).toEqual({
      'k3s-dev-3': { ...KEY, jobId: 'job-12', approvedBy: ['U0BOB'], at: expect.any(Number) },
    });
    const audit = await t.service.audit(ERIN, 10);
    expect('entries' in audit && audit.entries).toEqual([
      expect.objectContaining({
        action: 'pin-host-key',
        who: 'U0BOB',
        cluster: 'dev',
        jobId: 'job-12',
        what: `kept ${KEY.fingerprint} (ssh-ed25519) as the host key of k3s-dev-3`,
      }),
    ]);

    const dev3 = world.clusters.dev!.nodes.find((node) => node.name === 'k3s-dev-3')!;
    const text = describeReply(await t.service.status(ERIN, 'dev'), MRKDWN);
    expect(text).toContain(
      `• ⚠ k3s-dev-3 is reached through the bot's own host-key pin ${KEY.fingerprint} (accepted in job #12 by <@U0BOB>): ` +
        `add \`${dev3.address} ssh-ed25519 ${KEY.publicKey}\` to the mounted known_hosts (and drop its old key)`,
    );
  });
});
