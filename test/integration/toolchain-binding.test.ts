import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ansibleToolchain } from '../../src/lifecycle/playbook/ansible-toolchain.js';
import { TOOLCHAIN_STAMP_NAME } from '../../src/lifecycle/playbook/toolchain-stamp.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { labStepContext } from '../support/lab-step-context.js';
import { createInstantClock } from '../support/manual-clock.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

// The ops user's own collections folder, first on Ansible's collections path as a profile might set it:
// this file's alone, so installing into it changes no other test's toolchain.
let collections: string;
let lab: LifecycleLab;
beforeAll(async () => {
  collections = await mkdtemp(join(tmpdir(), 'cb-collections-'));
  lab = await startLifecycleLab({
    opsEnv: {
      ANSIBLE_COLLECTIONS_PATH: [
        collections,
        join(homedir(), '.ansible/collections'),
        '/usr/share/ansible/collections',
      ].join(':'),
    },
  });
});
afterAll(async () => {
  await lab?.stop();
  await rm(collections, { recursive: true, force: true });
});

const opsCommands = async (includes: string) =>
  (await lab.ops.commands()).filter((line) => line.includes(includes)).length;
const ciliumRuns = async () =>
  (await lab.playbookRuns()).filter(
    (line) => line === 'ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml',
  ).length;

describe('an approval binds Ansible on the ops host, and a resume proves it unchanged from a stamp (real ansible)', () => {
  it(
    'reads the toolchain whole when asking; the resume only stamps its places, and the approved rollout runs',
    async () => {
      const [readsBefore, stampsBefore, runsBefore] = [
        await opsCommands('ansible-galaxy collection list'),
        await opsCommands(TOOLCHAIN_STAMP_NAME),
        await ciliumRuns(),
      ];
      const job = lab.startJob('cilium dev');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      expect(await opsCommands('ansible-galaxy collection list')).toBe(readsBefore + 1);
      job.approvals.approve('2-cilium');

      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.voided).toEqual([]);
      expect(await opsCommands('ansible-galaxy collection list')).toBe(readsBefore + 1);
      expect(await opsCommands(TOOLCHAIN_STAMP_NAME)).toBeGreaterThan(stampsBefore + 1);
      expect(await ciliumRuns()).toBe(runsBefore + 1);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a kept read serves an hour at most, and only as this version of the stamp wrote it',
    async () => {
      const clock = createInstantClock(Date.now());
      const ctx = { ...labStepContext(lab, 'dev'), clock };
      const reads = () => opsCommands('ansible-galaxy collection list');
      const readsBefore = await reads();
      const toolchain = await ansibleToolchain(ctx);
      expect(toolchain).toMatch(/^[0-9a-f]{64}$/);
      expect(await ansibleToolchain(ctx)).toBe(toolchain);
      expect(await reads()).toBe(readsBefore + 1);

      clock.advance(61 * 60_000);
      expect(await ansibleToolchain(ctx)).toBe(toolchain);
      expect(await reads()).toBe(readsBefore + 2);

      // A fact another version wrote (its stamp taken by another script) is never compared.
      const kept = ctx.facts.get<Record<string, unknown>>('ansibleToolchain')!;
      await ctx.facts.set('ansibleToolchain', { ...kept, stampVersion: 'another script' });
      expect(await ansibleToolchain(ctx)).toBe(toolchain);
      expect(await reads()).toBe(readsBefore + 3);
      await ctx.facts.set('ansibleToolchain', { ...kept, version: undefined });
      expect(await ansibleToolchain(ctx)).toBe(toolchain);
      expect(await reads()).toBe(readsBefore + 4);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a collection installed between the approval and its click voids it, naming Ansible, and nothing runs',
    async () => {
      const job = lab.startJob('cilium dev');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      const runsBefore = await ciliumRuns();
      const installed = join(collections, 'ansible_collections/acme/demo');
      await mkdir(installed, { recursive: true });
      await writeFile(
        join(installed, 'MANIFEST.json'),
        JSON.stringify({ collection_info: { namespace: 'acme', name: 'demo', version: '1.0.0' }, format: 1 }),
      );
      job.approvals.approve('2-cilium');

      expect(await job.run()).toMatchObject({
        status: 'waiting',
        stepId: '2-cilium',
        approvalId: 'approval-2',
      });
      expect(job.approvals.voided).toEqual([
        {
          id: 'approval-1',
          reason:
            'Ansible on the ops host (its version, its settings or its collections) changed since the approval',
        },
      ]);
      expect(job.approvals.requests[1]!.binding.fingerprint).not.toBe(
        job.approvals.requests[0]!.binding.fingerprint,
      );
      expect(await ciliumRuns()).toBe(runsBefore);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
