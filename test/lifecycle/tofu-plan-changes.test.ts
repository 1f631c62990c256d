import { describe, expect, it } from 'vitest';
import { parseTofuPlanJson, replaceOnlyProblems } from '../../src/lifecycle/rebuild/tofu-plan-changes.js';

const NODE = 'proxmox_vm_qemu.k3s_node["k3s-dev-3"]';
const plan = (...changes: [string, string[]][]) =>
  JSON.stringify({
    format_version: '1.2',
    resource_changes: changes.map(([address, actions]) => ({ address, change: { actions } })),
  });

describe('a saved tofu plan may replace the node and nothing else', () => {
  it('accepts a replacement of the node (either order), with untouched neighbours', () => {
    const neighbour = 'proxmox_vm_qemu.k3s_node["k3s-dev-2"]';
    expect(
      replaceOnlyProblems(
        parseTofuPlanJson(plan([NODE, ['delete', 'create']], [neighbour, ['no-op']])),
        NODE,
      ),
    ).toEqual([]);
    expect(replaceOnlyProblems(parseTofuPlanJson(plan([NODE, ['create', 'delete']])), NODE)).toEqual([]);
  });

  it.each([
    [
      'another resource updated',
      plan([NODE, ['delete', 'create']], ['proxmox_lxc.dns', ['update']]),
      ['proxmox_lxc.dns (update)'],
    ],
    [
      'another resource destroyed',
      plan([NODE, ['delete', 'create']], ['proxmox_lxc.dns', ['delete']]),
      ['proxmox_lxc.dns (delete)'],
    ],
    ['the node only updated', plan([NODE, ['update']]), [`${NODE} is planned as update, not replaced`]],
    ['the node missing', plan(), [`${NODE} is not in the plan, not replaced`]],
  ])('refuses a plan with %s', (_case, json, problems) => {
    expect(replaceOnlyProblems(parseTofuPlanJson(json), NODE)).toEqual(problems);
  });

  it('refuses output that is not a JSON plan', () => {
    expect(() => parseTofuPlanJson('Plan: 1 to add, 0 to change, 1 to destroy.')).toThrow(/no JSON plan/);
    expect(() => parseTofuPlanJson('{"resource_changes":[{"address":1}]}')).toThrow(
      /without address or actions/,
    );
  });
});
