import { beforeEach, describe, expect, it } from 'vitest';
import { startServiceInMemory } from '../support/cluster-service-in-memory.js';
import { loadExampleWorld } from '../support/example-world.js';

const ALICE = { userId: 'U0ALICE', channelId: 'C0OPS' };
const BOB = { userId: 'U0BOB', channelId: 'C0OPS' };
const restore = { verb: 'restore', cluster: 'dev', snapshot: 'etcd-snapshot-k3s-dev-2-1764590400' } as const;

let t: ReturnType<typeof startServiceInMemory>;
beforeEach(async () => {
  t = startServiceInMemory(await loadExampleWorld());
});

describe('a restore and the cluster lease', () => {
  it('is refused while another job holds the cluster, naming the holder', async () => {
    expect(await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false)).toMatchObject({
      kind: 'queued',
      jobId: 'job-1',
    });
    expect(await t.service.submit(BOB, restore, false)).toMatchObject({
      code: 'BUSY',
      cluster: 'dev',
      command: `restore dev ${restore.snapshot}`,
      holder: { id: 'job-1', record: { requestedBy: 'U0ALICE' } },
    });
  });

  it('holds the cluster itself: nothing else changes it meanwhile', async () => {
    expect(await t.service.submit(ALICE, restore, false)).toMatchObject({ kind: 'queued', jobId: 'job-1' });
    expect(await t.service.submit(BOB, { verb: 'up', cluster: 'dev' }, false)).toMatchObject({
      code: 'BUSY',
      holder: { id: 'job-1' },
    });
  });
});
