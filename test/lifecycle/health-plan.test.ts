import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { isClusterBotError } from '../../src/errors.js';
import { createAnsibleOutputParser } from '../../src/lifecycle/ansible/create-ansible-output-parser.js';
import { describePlan } from '../../src/lifecycle/plans/describe-plan.js';
import { type NodeHealthScope, reportNodeHealth } from '../../src/lifecycle/playbook/report-node-health.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { isMutating } from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
import { loadExampleWorld } from '../support/example-world.js';
import { loadFixture } from './ansible/load-fixture.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

const ops = '[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ';
const DEV_NODES = ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'];

function planOf(text: string) {
  const parsed = parseLifecycleCommand(text, world);
  if (!parsed.ok) throw new Error(parsed.error);
  return buildPlan(parsed.command, world);
}

/** What the health step concludes from a real node-health.yml run of the lab (a fixture). */
function judge(fixture: string, scope: NodeHealthScope): { summary: string } | { error: unknown } {
  const { lines, exitCode } = loadFixture(fixture);
  const parser = createAnsibleOutputParser();
  for (const line of lines) parser.push(line);
  try {
    return { summary: reportNodeHealth(scope)(parser.result(exitCode)) };
  } catch (error) {
    return { error };
  }
}

describe('health <node|cluster>: parsing', () => {
  it('takes a cluster or a node from the config, and no options', () => {
    expect(parseLifecycleCommand('health dev', world)).toEqual({
      ok: true,
      command: { verb: 'health', cluster: 'dev' },
      queue: false,
    });
    expect(parseLifecycleCommand('health k3s-prod-2', world)).toEqual({
      ok: true,
      command: { verb: 'health', cluster: 'prod', node: 'k3s-prod-2' },
      queue: false,
    });
    expect(parseLifecycleCommand('health dev --queue', world)).toMatchObject({
      ok: false,
      error: 'unknown option "--queue" for health',
    });
    expect(parseLifecycleCommand('health', world)).toMatchObject({
      ok: false,
      error: 'health takes exactly one node or cluster, e.g. `health dev`',
    });
    expect(parseLifecycleCommand('health dev prod', world)).toMatchObject({ ok: false });
  });

  it('refuses an unknown target, naming what it knows and the nearest name', () => {
    expect(parseLifecycleCommand('health k3s-dev-9', world)).toEqual({
      ok: false,
      error:
        'unknown node or cluster "k3s-dev-9" (clusters: dev, prod; nodes: k3s-dev-1, k3s-dev-2, k3s-dev-3, k3s-prod-1, k3s-prod-2, k3s-prod-3)',
      suggestion: 'k3s-dev-1',
    });
    expect(parseLifecycleCommand('health prd', world)).toMatchObject({ ok: false, suggestion: 'prod' });
    for (const hostile of ['all', 'k3s_servers', 'dev,prod', 'k3s-dev-1:k3s-dev-2', '@/etc/shadow', 'dеv']) {
      expect(parseLifecycleCommand(`health ${hostile}`, world).ok, hostile).toBe(false);
    }
  });

  it('is a check: no cluster lease', () => {
    expect(isMutating({ verb: 'health', cluster: 'dev' })).toBe(false);
    expect(isMutating({ verb: 'health', cluster: 'prod', node: 'k3s-prod-1' })).toBe(false);
  });
});

describe('health <node|cluster>: the plan', () => {
  it('a cluster: node-health.yml on its group (dev the default k3s_servers), no approval', () => {
    const plan = planOf('health dev');
    expect(plan.cluster).toBe('dev');
    expect(plan.steps.map((s) => [s.title, s.target, s.commandLine, s.approval])).toEqual([
      [
        'node-health.yml',
        'dev: all nodes (k3s_servers)',
        `${ops}ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s_servers`,
        undefined,
      ],
    ]);
  });

  it("prod: its k3s_hosts group, and only node_health_hosts (the runbook's line), not the bring-up vars", () => {
    expect(planOf('health prod').steps.map((s) => s.commandLine)).toEqual([
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s_prod`,
    ]);
  });

  it('a node: node_health_hosts is the node itself', () => {
    const plan = planOf('health k3s-prod-1');
    expect(plan.cluster).toBe('prod');
    expect(describePlan(plan)).toBe(
      [
        'Plan for `health k3s-prod-1` on prod: 1 steps (⚠ = stops for approval first)',
        '1. node-health.yml → k3s-prod-1',
        `   ${ops}ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s-prod-1`,
      ].join('\n'),
    );
  });
});

describe('health <node|cluster>: the report, from real node-health.yml runs', () => {
  it('all healthy: one ok line per host', () => {
    expect(judge('node-health-dev.txt', { hosts: 'k3s_servers', nodes: DEV_NODES })).toEqual({
      summary: [
        'node-health.yml: 3 hosts healthy',
        '• k3s-dev-1: ok',
        '• k3s-dev-2: ok',
        '• k3s-dev-3: ok',
      ].join('\n'),
    });
  });

  it('an unhealthy or unreachable host fails the step, naming each, and every host is reported', () => {
    const result = judge('node-health-unhealthy.txt', { hosts: 'k3s_servers', nodes: DEV_NODES });
    if (!('error' in result) || !isClusterBotError(result.error)) throw new Error('expected a failure');
    expect(result.error.code).toBe('PLAYBOOK_FAILED');
    expect(result.error.message).toBe(
      [
        'node-health.yml failed: k3s-dev-2, k3s-dev-3 unhealthy (2 of 3 hosts)',
        '• k3s-dev-1: ok',
        '• k3s-dev-2: failed at node_health : Check k3s service is active: non-zero return code: inactive',
        '• k3s-dev-3: unreachable: Failed to connect to the host via ssh: ssh: connect to host 127.0.0.1 port 1: Connection refused',
      ].join('\n'),
    );
    expect(result.error.details).toMatchObject({
      playbook: 'node-health.yml',
      exitCode: 4,
      recap: { 'k3s-dev-2': expect.objectContaining({ failed: 1 }) },
    });
  });

  it('a target the inventory does not match ("no hosts matched", exit 0) checked nothing: it fails', () => {
    const result = judge('node-health-no-hosts.txt', { hosts: 'k3s-prod-2', nodes: ['k3s-prod-2'] });
    expect(result).toEqual({
      error: expect.objectContaining({
        code: 'PLAYBOOK_FAILED',
        message:
          'node-health.yml failed: node_health_hosts=k3s-prod-2 matched no host in inventory/hosts.ini, so nothing was checked',
      }),
    });
  });

  it('a configured node the group does not reach is named as not checked', () => {
    expect(
      judge('node-health-dev.txt', { hosts: 'k3s_servers', nodes: [...DEV_NODES, 'k3s-dev-4'] }),
    ).toEqual({
      summary: expect.stringMatching(
        /^node-health.yml: 3 hosts healthy\n[\s\S]*\n• k3s-dev-4: not checked \(node_health_hosts=k3s_servers does not match it in inventory\/hosts.ini\)$/,
      ),
    });
  });
});
