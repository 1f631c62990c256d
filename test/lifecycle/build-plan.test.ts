import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { parseLifecycleCommand } from '../../src/lifecycle/command/parse-lifecycle-command.js';
import { buildPlan } from '../../src/lifecycle/plans/build-plan.js';
import { describePlan } from '../../src/lifecycle/plans/describe-plan.js';
import { loadExampleWorld } from '../support/example-world.js';

let world: WorldConfig;
beforeAll(async () => {
  world = await loadExampleWorld();
});

function planOf(text: string) {
  const parsed = parseLifecycleCommand(text, world);
  if (!parsed.ok) throw new Error(parsed.error);
  return buildPlan(parsed.command, world);
}

const ops = '[ops@10.73.0.5] cd /home/ops/homelab/infra/ansible && ';
const prodVars =
  '-e k3s_hosts=k3s_prod -e k3s_primary_hosts=k3s_prod_primary -e k3s_secondary_hosts=k3s_prod_secondary';

describe('plans built from config/example.yaml', () => {
  it('up dev: site.yml chain, then kube-vip and the VPN gateway, with approvals before disruptive steps', () => {
    const plan = planOf('up dev');
    expect(
      plan.steps.map((s) => `${s.approval ? `${s.approval.mark} ` : ''}${s.title} → ${s.target}`),
    ).toEqual([
      'node-baseline.yml → dev: all nodes',
      '⚠ first run k3s.yml → dev: all nodes',
      "cluster kubeconfig → dev: the kubeconfig in use, else the k3s role's .cache/<cluster_kubeconfig_name>",
      'Cilium preflight → dev: helmrelease, .j2 template, values.yaml, live DaemonSet',
      '⚠ cilium.yml → dev: all nodes',
      'watch Cilium rollout → dev: DaemonSet kube-system/cilium, one agent at a time',
      'verify gates → dev (Kubernetes API)',
      '⚠ flux-bootstrap.yml → dev: all nodes',
      'kube-vip.yml → dev: all nodes',
      'vpn.egress.gateway.yml → k3s-dev-3',
      'VPN egress check → k3s-dev-3',
      'verify gates → dev (Kubernetes API)',
    ]);
    expect(plan.steps[0]!.commandLine).toBe(`${ops}ansible-playbook playbooks/node-baseline.yml`);
    expect(plan.steps[9]!.commandLine).toBe(
      `${ops}ansible-playbook playbooks/vpn.egress.gateway.yml --limit k3s-dev-3`,
    );
    expect(new Set(plan.steps.map((s) => s.id)).size).toBe(plan.steps.length);
    // The kubeconfig check is numbered after k3s.yml, so the steps after it keep their ids.
    expect(plan.steps.slice(1, 4).map((s) => s.id)).toEqual([
      '2-k3s',
      '2-k3s-kubeconfig',
      '3-cilium-preflight',
    ]);
  });

  it('up prod: preconditions first, prod init approval, the prod extra vars on every playbook, no VPN gateway', () => {
    const plan = planOf('up prod');
    expect(plan.steps[0]!.title).toBe('prod preconditions');
    const k3s = plan.steps.find((s) => s.title === 'k3s.yml')!;
    expect(k3s.approval?.mark).toBe('⚠ prod init (first run)');
    expect(k3s.commandLine).toBe(`${ops}ansible-playbook playbooks/k3s.yml ${prodVars}`);
    for (const step of plan.steps.filter((s) => s.title.endsWith('.yml'))) {
      expect(step.commandLine).toContain(prodVars);
    }
    expect(plan.steps.some((s) => s.title.startsWith('vpn'))).toBe(false);
  });

  it('reprovision k3s-dev-3: the runbook with --limit, the rebuild, the VPN checks', () => {
    const plan = planOf('reprovision k3s-dev-3');
    expect(plan.steps.map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'reprovision preconditions',
      '⚠ cordon + drain',
      'stop k3s + delete Node',
      '⚠ rebuild VM (tofu)',
      'wait for SSH',
      '⚠ accept new host key',
      'node-baseline.yml',
      'k3s.yml',
      'kube-vip.yml',
      'vpn.egress.gateway.yml',
      'VPN egress check',
      'node + Cilium agent Ready',
      'uncordon',
      'verify gates',
    ]);
    expect(plan.steps[3]!.commandLine).toBe(
      `[ops@10.73.0.5] cd /home/ops/homelab/infra/tofu && tofu plan '-replace=proxmox_vm_qemu.k3s["k3s-dev-3"]' '-out=.terraform/cluster-bot-<job>.tfplan' -input=false -no-color; then tofu apply .terraform/cluster-bot-<job>.tfplan`,
    );
    expect(plan.steps[7]!.commandLine).toBe(`${ops}ansible-playbook playbooks/k3s.yml --limit k3s-dev-3`);
  });

  it('reprovision of the primary is refused without --primary, and warns of the founder risk with it', () => {
    expect(() => planOf('reprovision k3s-dev-1')).toThrow(
      /the --cluster-init founder[\s\S]*reprovision k3s-dev-1 --primary/,
    );
    const plan = planOf('reprovision k3s-dev-1 --primary');
    const k3s = plan.steps.find((s) => s.title === 'k3s.yml')!;
    expect(k3s.approval?.warning).toMatch(/can found a NEW cluster/);
    expect(plan.steps.find((s) => s.title === 'cordon + drain')!.approval?.warning).toMatch(/founder/);
  });

  it('reprovision of a bare-metal prod node: no tofu, the known host key, k3s-uninstall.sh approved, the prod vars', () => {
    const plan = planOf('reprovision k3s-prod-2');
    expect(plan.steps.some((s) => s.title.includes('tofu'))).toBe(false);
    expect(plan.steps.slice(3, 6).map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'wait for SSH',
      '⚠ k3s-uninstall.sh',
      'node-baseline.yml',
    ]);
    expect(plan.steps.find((s) => s.title === 'k3s.yml')!.commandLine).toBe(
      `${ops}ansible-playbook playbooks/k3s.yml ${prodVars} --limit k3s-prod-2`,
    );
  });

  it('cilium dev: preflight, approved playbook, rollout watch, gates', () => {
    expect(planOf('cilium dev').steps.map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'Cilium preflight',
      '⚠ cilium.yml',
      'watch Cilium rollout',
      'verify gates',
    ]);
  });

  it('packages: the packages-only baseline on one node, with the env extra vars', () => {
    expect(planOf('packages k3s-prod-1').steps.map((s) => s.commandLine)).toEqual([
      `${ops}ansible-playbook playbooks/node-baseline.yml ${prodVars} --limit k3s-prod-1 --tags packages`,
    ]);
  });

  it('verify: gates only', () => {
    expect(planOf('verify prod').steps.map((s) => s.title)).toEqual(['verify gates']);
  });

  it('prints a plan with every step, target, command line and mark', () => {
    const text = describePlan(planOf('cilium dev'));
    expect(text).toContain('Plan for `cilium dev` on dev: 4 steps (⚠ = stops for approval first)');
    expect(text).toContain('2. ⚠ cilium.yml → dev: all nodes');
    expect(text).toContain(`   ${ops}ansible-playbook playbooks/cilium.yml`);
  });
});

describe('commands refused before a job exists', () => {
  const refusals: [string, RegExp][] = [
    ['reprovision k3s-dev-9', /unknown node "k3s-dev-9": not in the inventory/],
    ['reprovision k3s-dev-3; rm -rf /', /unknown option|takes exactly one node/],
    ['packages -e @/etc/shadow', /packages takes exactly one node/],
    ['packages @/etc/shadow', /unknown node "@\/etc\/shadow"/],
    ['packages --extra-vars=x k3s-dev-1', /unknown option "--extra-vars=x"/],
    ['up ../../etc', /unknown cluster/],
    ['up dеv', /unknown cluster/],
    ['verify', /verify takes exactly one cluster/],
    ['deploy dev', /unknown command "deploy"/],
    ['', /no command given/],
    [`up ${'x'.repeat(10_000)}`, /command is too long/],
  ];
  it.each(refusals.map(([text, reason]) => [text.slice(0, 40), text, reason] as const))(
    '%s',
    (_label, text, reason) => {
      const parsed = parseLifecycleCommand(text, world);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(reason);
    },
  );

  it('suggests the closest valid name', () => {
    const parsed = parseLifecycleCommand('reprovision k3s-dev3', world);
    expect(parsed).toMatchObject({ ok: false, suggestion: 'k3s-dev-3' });
    expect(parseLifecycleCommand('cilum dev', world)).toMatchObject({ ok: false, suggestion: 'cilium' });
  });
});
