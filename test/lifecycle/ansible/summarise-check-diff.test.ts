import { describe, expect, it } from 'vitest';
import type { AnsibleEvent } from '../../../src/lifecycle/ansible/ansible-event.js';
import { createAnsibleOutputParser } from '../../../src/lifecycle/ansible/create-ansible-output-parser.js';
import { summariseCheckDiff } from '../../../src/lifecycle/ansible/summarise-check-diff.js';
import { loadFixture } from './load-fixture.js';

describe('summariseCheckDiff', () => {
  const { lines } = loadFixture('site-check-diff.txt');

  it('lists what each host would change and a bounded diff excerpt', () => {
    const summary = summariseCheckDiff(lines);
    expect(Object.keys(summary.hosts).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(summary.hosts['k3s-dev-2']?.tasks).toEqual([
      'node_baseline : Install base packages',
      'node_baseline : Load kernel modules',
      'node_baseline : Apply sysctls and disable swap',
      'node_baseline : Format and mount Longhorn disk',
      'k3s_server : Write k3s config',
      'k3s_server : Install k3s',
    ]);
    // run_once steps of cilium and flux run on the first host only.
    expect(summary.hosts['k3s-dev-1']?.tasks).toContain('cilium : Render Cilium values');
    expect(summary.hosts['k3s-dev-1']?.changed).toBe(14);
    expect(summary.changed).toBe(32);
    expect(summary.failures).toEqual([]);
    expect(summary.diffExcerpt).toHaveLength(40);
    expect(summary.truncated).toBe(true);
    expect(summary.diffExcerpt[0]).toBe('# k3s-dev-1: node_baseline : Install base packages');
    expect(summary.diffExcerpt).toContain('+smartmontools');
  });

  it('gives the same summary from the parser’s events', () => {
    const parser = createAnsibleOutputParser();
    const events: AnsibleEvent[] = lines.flatMap((line) => parser.push(line));
    events.push(...parser.flush());
    expect(summariseCheckDiff(events, 12)).toEqual(summariseCheckDiff(lines, 12));
    expect(summariseCheckDiff(events, 12).diffExcerpt).toHaveLength(12);
  });

  it('carries failures of a preview that could not run', () => {
    const summary = summariseCheckDiff(loadFixture('prod-baseline-blocked.txt').lines);
    expect(summary.failures).toEqual([
      expect.objectContaining({
        host: 'k3s-prod-1',
        task: 'node_baseline : Assert disk devices are decided',
      }),
    ]);
  });

  it('is empty for nothing', () => {
    expect(summariseCheckDiff([])).toEqual({
      hosts: {},
      changed: 0,
      failures: [],
      diffExcerpt: [],
      truncated: false,
    });
  });
});
