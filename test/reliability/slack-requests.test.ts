import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const queued = (lab: SlackLab) => lab.slack.ephemerals.filter((e) => e.text.startsWith('Queued as job'));

describe('forged and hostile Slack requests', { timeout: labMs(180_000) }, () => {
  it('bad signature, stale timestamp, missing headers: 401 and nothing enqueued', async () => {
    lab = await startSlackLab();
    const { driver } = lab;
    const at = { userId: 'U0ALICE', channelId: 'C0OPS' };
    expect((await driver.slash('verify dev', { ...at, signature: 'bad' })).status).toBe(401);
    expect(
      (await driver.slash('verify dev', { ...at, timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })).status,
    ).toBe(401);
    expect((await driver.slash('verify dev', { ...at, signature: 'missing' })).status).toBe(401);
    const body = new URLSearchParams({
      command: '/cluster',
      text: 'up dev',
      user_id: 'U0ALICE',
      channel_id: 'C0OPS',
    }).toString();
    expect(
      (await driver.sendRaw({ body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
        .status,
    ).toBe(401);
    // A well-signed request still works, so the 401s above were about the signatures.
    expect((await driver.slash('help', at)).status).toBe(200);
    await lab.slack.waitFor(() => lab!.slack.ephemerals.find((e) => e.text.includes('runs the life')), {
      timeoutMs: 10_000,
    });
    expect(queued(lab)).toEqual([]);
    expect(lab.slack.messages('C0OPS')).toEqual([]);
  });

  it('hostile text in every command is refused before a job exists, and no command reaches the ops host', async () => {
    lab = await startSlackLab();
    const hostile = [
      'reprovision k3s-dev-1; rm -rf /',
      'packages $(touch /tmp/pwned)',
      'packages -e @/etc/shadow',
      'up dev --extra-vars=@/etc/shadow',
      'reprovision ../../etc/passwd',
      'reprovision k3s-dеv-3',
      `cilium ${'x'.repeat(10_000)}`,
      'cancel 1; DROP TABLE',
      'status `id`',
      'plan up dev && curl x',
    ];
    for (const text of hostile) await lab.driver.slash(text, { userId: 'U0ALICE', channelId: 'C0OPS' });
    await lab.slack.waitFor(() => (lab!.slack.ephemerals.length >= hostile.length ? true : undefined), {
      timeoutMs: 20_000,
    });
    for (const answer of lab.slack.ephemerals) expect(answer.text).toMatch(/^⛔/);
    expect(queued(lab)).toEqual([]);
    expect([...(await lab.ops.commands()), ...(await lab.nodes.commands())]).toEqual([]);
  });

  it('200 signed commands at once: all acked within 3 s, one mutating job per cluster, the rest refused clearly', async () => {
    // The lease under load, not the per-person command limit (security-edges.test.ts), is tested here.
    // Prod racked and with its vault, so an accepted prod job holds its lease (it waits for an approval)
    // instead of being refused by its preconditions at once and freeing the cluster mid-burst.
    lab = await startSlackLab({
      env: { COMMANDS_PER_USER_PER_MINUTE: '1000' },
      repo: { prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: true, blocked: false },
      prod: 'formed',
    });
    const texts = ['cilium dev', 'up dev', 'packages k3s-dev-2', 'cilium prod', 'packages k3s-prod-1'];
    const sent = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        lab!.driver.slash(texts[i % texts.length]!, { userId: 'U0ALICE', channelId: 'C0OPS' }),
      ),
    );
    expect(sent.every((response) => response.status === 200)).toBe(true);
    expect(Math.max(...sent.map((response) => response.latencyMs))).toBeLessThan(3_000);
    await lab.slack.waitFor(() => (lab!.slack.ephemerals.length >= 200 ? true : undefined), {
      timeoutMs: 60_000,
    });
    const answers = lab.slack.ephemerals.map((e) => e.text);
    const accepted = answers.filter((t) => t.startsWith('Queued as job'));
    expect(accepted).toHaveLength(2);
    expect(accepted.some((t) => /`(cilium|up) dev`|`packages k3s-dev-2`/.test(t))).toBe(true);
    expect(accepted.some((t) => /`cilium prod`|`packages k3s-prod-1`/.test(t))).toBe(true);
    const busy = answers.filter((t) => /^⛔ (dev|prod) is busy: job #\d+ \(.+\) by <@U0ALICE>/.test(t));
    expect(busy).toHaveLength(198);
  });

  it('a correctly signed click on an approval that already expired is refused and approves nothing', async () => {
    lab = await startSlackLab({ dev: { approvalTimeout: '4s' } });
    const { slack, driver } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await slack.waitFor(
      () => slack.allMessages('C0OPS').find((m) => m.text.includes('approval needed for cilium.yml')),
      { timeoutMs: 60_000 },
    );
    // Capture a real approver's click payload without letting it count (its value is broken)...
    const probe = await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
      editValue: (value) => `${value}-broken`,
    });
    await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('approval expired')), {
      timeoutMs: 30_000,
    });
    // ...then, once expired, send it with the real value, correctly signed.
    const body = String(probe.request.body).replace('-broken', '');
    const late = await driver.sendRaw({ body, headers: driver.signedHeaders(body) });
    expect(late.status).toBe(200);
    await slack.waitFor(
      () =>
        slack.ephemerals.find((e) => e.user === 'U0BOB' && e.text.includes('no longer pending (expired)')),
      {
        timeoutMs: 15_000,
      },
    );
    expect(slack.messages('C0OPS').find((m) => m.text.includes('*cilium dev*'))?.text).toContain(
      'approval expired',
    );
    expect(slack.allMessages('C0OPS').some((m) => m.text.includes('approved by'))).toBe(false);
  });
});
