import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { describePlan } from '../../src/lifecycle/plans/describe-plan.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { isMutating } from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const SNAPSHOT = 'etcd-snapshot-k3s-dev-1-1764633600';

describe('restore <cluster> <snapshot>: parsing', () => {
  it('takes a cluster and a snapshot name, and changes the cluster', () => {
    const parsed = parseLifecycleCommand(`restore dev ${SNAPSHOT}`, world);
    expect(parsed).toMatchObject({
      ok: true,
      command: { verb: 'restore', cluster: 'dev', snapshot: SNAPSHOT },
    });
    expect(parsed.ok && isMutating(parsed.command)).toBe(true);
  });

  it.each([
    ['restore dev', 'restore takes a cluster and one snapshot name'],
    [`restore dev ${SNAPSHOT} another`, 'restore takes a cluster and one snapshot name'],
    ['restore dev ../../etc/passwd', 'is not an etcd snapshot name'],
    ['restore dev $(reboot)', 'is not an etcd snapshot name'],
  ])('refuses %s', (text, error) => {
    const parsed = parseLifecycleCommand(text, world);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(error);
  });
});

describe('restore <cluster> <snapshot>: the plan', () => {
  it("reads as k3s's HA restore: approve, stop every server, reset on the holder, start it, re-join the others one at a time, verify", () => {
    const parsed = parseLifecycleCommand(`restore dev ${SNAPSHOT}`, world);
    if (!parsed.ok) throw new Error(parsed.error);
    const text = describePlan(buildPlan(parsed.command, world));
    expect(text.split('\n').filter((line) => /^\d+\./.test(line))).toEqual([
      "1. preconditions → dev: the repo's ansible.cfg, nodes in hosts.ini, node SSH, approvers, snapshot on a server, root on nodes",
      `2. ⚠ approve the restore from ${SNAPSHOT} → every server (k3s stopped on all, then back one at a time)`,
      '3. stop k3s on every server → dev: every server (the API is down from here until the restored server is back)',
      `4. restore the snapshot (cluster reset) → the server holding ${SNAPSHOT}`,
      `5. start the restored server → the server holding ${SNAPSHOT}`,
      '6. re-join k3s-dev-1 → k3s-dev-1',
      '7. re-join k3s-dev-2 → k3s-dev-2',
      '8. re-join k3s-dev-3 → k3s-dev-3',
      expect.stringMatching(/^9\. verify gates → dev/),
    ]);
    expect(text).toContain(
      `   k3s server --cluster-reset --cluster-reset-restore-path=/var/lib/rancher/k3s/server/db/snapshots/${SNAPSHOT} (as root, on the server holding it)`,
    );
    expect(text).toContain(
      '   mv /var/lib/rancher/k3s/server/db /var/lib/rancher/k3s/server/db.cluster-bot-<job>-<tag>; systemctl start k3s (as root, on k3s-dev-2, unless it holds the snapshot); wait for it Ready with the etcd role',
    );
  });

  it('asks two distinct approvers on production whatever its usual count, at least one elsewhere', () => {
    const approvalOf = (cluster: string) => {
      const parsed = parseLifecycleCommand(`restore ${cluster} ${SNAPSHOT}`, world);
      if (!parsed.ok) throw new Error(parsed.error);
      return buildPlan(parsed.command, world).steps.find((step) => step.approval)?.approval;
    };
    expect(approvalOf('prod')?.minimumApprovals).toBe(2);
    expect(approvalOf('dev')?.minimumApprovals).toBe(1);
  });
});
