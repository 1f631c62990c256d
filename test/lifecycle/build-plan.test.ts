import { beforeAll, describe, expect, it } from 'vitest';
import type { WorldConfig } from '../../src/config/world-config.js';
import { describePlan } from '../../src/lifecycle/plans/describe-plan.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { parseLifecycleCommand } from '../../src/lifecycle/verbs/parse-lifecycle-command.js';
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
      "preconditions → dev: the repo's ansible.cfg, its kubeconfig, VIP and API host are its own, founder per hosts.ini, founder in the cluster, nodes in hosts.ini, Flux path",
      'node-baseline.yml → dev: all nodes',
      '⚠ first run or a change k3s.yml → dev: all nodes',
      "cluster kubeconfig → dev: the kubeconfig in use, else the k3s role's .cache/<cluster_kubeconfig_name>",
      'Cilium preflight → dev: helmrelease, .j2 template, values.yaml, role defaults, live DaemonSet',
      '⚠ cilium.yml → dev: all nodes',
      'watch Cilium rollout → dev: DaemonSet kube-system/cilium, one agent at a time',
      'verify gates → dev (Kubernetes API, k3s config of each server)',
      'resume Flux for cilium → dev: HelmRelease kube-system/cilium',
      'wait for Flux to settle cilium → dev: HelmRelease kube-system/cilium Ready at its new generation',
      "watch Flux's Cilium rollout → dev: DaemonSet kube-system/cilium, one agent at a time",
      'verify gates → dev (Kubernetes API, k3s config of each server)',
      'verify.yml → dev: gate #1',
      '⚠ flux-bootstrap.yml → dev: all nodes',
      'kube-vip.yml → dev: all nodes',
      'vpn.egress.gateway.yml → k3s-dev-3',
      'VPN egress check → k3s-dev-3',
      'verify gates → dev (Kubernetes API, k3s config of each server)',
    ]);
    expect(plan.steps[1]!.commandLine).toBe(
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml`,
    );
    expect(plan.steps[12]!.commandLine).toBe(
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/verify.yml`,
    );
    expect(plan.steps[15]!.commandLine).toBe(
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/vpn.egress.gateway.yml --limit k3s-dev-3`,
    );
    expect(new Set(plan.steps.map((s) => s.id)).size).toBe(plan.steps.length);
    // The kubeconfig check is numbered after k3s.yml, Flux's hand-back after the verify it follows,
    // so the steps after them keep their ids.
    expect(plan.steps.map((s) => s.id)).toEqual([
      '1-preconditions',
      '2-node-baseline',
      '3-k3s',
      '3-k3s-kubeconfig',
      '4-cilium-preflight',
      '5-cilium',
      '6-cilium-rollout',
      '7-verify',
      '7-verify-resume-flux',
      '7-verify-resume-flux-settled',
      '7-verify-resume-flux-rollout',
      '7-verify-resume-flux-verify',
      '8-verify-yml',
      '9-flux-bootstrap',
      '10-kube-vip',
      '11-vpn-egress-gateway',
      '12-vpn-check',
      '13-verify',
    ]);
  });

  it('up prod: every rule checked first, every mutating step approved, the prod extra vars everywhere, no VPN gateway', () => {
    const plan = planOf('up prod');
    expect(plan.steps[0]!.target).toBe(
      "prod: the repo's ansible.cfg, its kubeconfig, VIP and API host are its own, founder per hosts.ini, founder in the cluster, nodes in hosts.ini, Flux path, odd number of servers ≥ 3, vault, no BLOCKED disks, node SSH",
    );
    const marks = plan.steps
      .filter((s) => s.title.endsWith('.yml'))
      .map((s) => `${s.approval?.mark ?? ''} ${s.title}`);
    expect(marks).toEqual([
      '⚠ formats disks node-baseline.yml',
      '⚠ prod init k3s.yml',
      '⚠ cilium.yml',
      ' verify.yml',
      '⚠ flux-bootstrap.yml',
      '⚠ kube-vip.yml',
    ]);
    for (const step of plan.steps.filter((s) => s.title.endsWith('.yml'))) {
      expect(step.commandLine).toContain(prodVars);
    }
    expect(plan.steps.some((s) => s.title.startsWith('vpn'))).toBe(false);
  });

  it('reprovision k3s-dev-3: the runbook with --limit, the rebuild, the VPN checks', () => {
    const plan = planOf('reprovision k3s-dev-3');
    expect(plan.steps.map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'preconditions',
      '⚠ cordon + drain',
      'etcd snapshot',
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
    expect(plan.steps[0]!.target).toBe(
      "dev: the repo's ansible.cfg, founder per hosts.ini, k3s-dev-3 is not the founder, k3s-dev-3 is not the API host, nodes in hosts.ini, other servers Ready, root on nodes",
    );
    expect(plan.steps[4]!.commandLine).toBe(
      `[ops@10.73.0.5] cd /home/ops/homelab/infra/tofu && tofu plan '-replace=proxmox_vm_qemu.k3s["k3s-dev-3"]' '-out=.terraform/cluster-bot-<job>-<tag>.tfplan' -input=false -no-color; then tofu apply .terraform/cluster-bot-<job>-<tag>.tfplan`,
    );
    expect(plan.steps[8]!.commandLine).toBe(
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml --limit k3s-dev-3`,
    );
  });

  it('reprovision of the founder is refused, with the procedure; --primary is refused with the same reason', () => {
    expect(() => planOf('reprovision k3s-dev-1')).toThrow(
      /k3s-dev-1 is the --cluster-init founder \(its primary role in the config\)[\s\S]*Move the founder role to another server in inventory\/hosts.ini, commit, then reprovision k3s-dev-1/,
    );
    const parsed = parseLifecycleCommand('reprovision k3s-dev-2 --primary', world);
    expect(parsed).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--primary is not accepted.*Move the founder role/),
    });
  });

  it('reprovision of a bare-metal prod node: no tofu, a reinstall by hand confirmed, the new host key accepted, the prod vars', () => {
    const plan = planOf('reprovision k3s-prod-2');
    expect(plan.steps.some((s) => s.title.includes('tofu'))).toBe(false);
    expect(plan.steps.slice(4, 9).map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      '⚠ OS reinstalled by hand',
      'wait for SSH',
      '⚠ accept new host key',
      '⚠ k3s-uninstall.sh',
      '⚠ node-baseline.yml',
    ]);
    expect(plan.steps[4]!.approval?.reason).toMatch(
      /^reinstall the OS on k3s-prod-2 now, by hand, as the runbook's "Re-provisioning a node \(fresh OS\)" says/,
    );
    const k3s = plan.steps.find((s) => s.title === 'k3s.yml')!;
    expect(k3s.commandLine).toBe(
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml ${prodVars} --limit k3s-prod-2`,
    );
    expect(k3s.approval?.reason).toMatch(/^production: /);
    expect(plan.steps[0]!.target).toContain('vault');
  });

  it('cilium dev: preflight, approved playbook, rollout watch, gates, then Flux resumed, settled, its rollout watched, gates', () => {
    expect(planOf('cilium dev').steps.map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'Cilium preflight',
      '⚠ cilium.yml',
      'watch Cilium rollout',
      'verify gates',
      'resume Flux for cilium',
      'wait for Flux to settle cilium',
      "watch Flux's Cilium rollout",
      'verify gates',
    ]);
  });

  it('cilium dev --rollback: pick the revision, approved helm rollback, the same rollout watch, gates, Flux kept suspended', () => {
    const steps = planOf('cilium dev --rollback').steps;
    expect(steps.map((s) => `${s.approval ? '⚠ ' : ''}${s.title}`)).toEqual([
      'pick the Cilium revision',
      '⚠ helm rollback cilium',
      'watch Cilium rollout',
      'verify gates',
      'keep Flux suspended for cilium',
    ]);
    expect(steps[0]!.target).toBe('dev: helm history (the last good revision)');
    expect(planOf('cilium dev --rollback 7').steps[0]!.target).toBe('dev: helm history (revision 7)');
    expect(steps.map((s) => s.id)).toEqual([
      '1-rollback-target',
      '2-helm-rollback',
      '3-cilium-rollout',
      '4-verify',
      '5-keep-flux-suspended',
    ]);
  });

  it('cilium dev --resume-flux: the preflight of git, an approved flux resume, Flux settled, its rollout watched, gates', () => {
    const steps = planOf('cilium dev --resume-flux').steps;
    expect(steps.map((s) => [`${s.approval ? `${s.approval.mark} ` : ''}${s.title}`, s.commandLine])).toEqual(
      [
        ['Cilium preflight', undefined],
        ['⚠ resume Flux for cilium', 'flux resume helmrelease cilium -n kube-system'],
        ['wait for Flux to settle cilium', undefined],
        ["watch Flux's Cilium rollout", undefined],
        ['verify gates', undefined],
      ],
    );
  });

  it('packages: the packages-only baseline on one node, with the env extra vars', () => {
    const steps = planOf('packages k3s-prod-1').steps;
    expect(steps.map((s) => s.commandLine)).toEqual([
      undefined,
      `${ops}ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${prodVars} --limit k3s-prod-1 --tags packages`,
    ]);
    expect(steps[0]!.target).toBe("prod: the repo's ansible.cfg, vault");
    expect(steps[1]!.approval?.reason).toBe('production: installs packages on k3s-prod-1');
    expect(planOf('packages k3s-dev-2').steps.map((s) => s.approval)).toEqual([undefined]);
  });

  it('verify: one read of the gates, no waiting', () => {
    expect(planOf('verify prod').steps.map((s) => s.title)).toEqual(['verify gates (one read)']);
  });

  it('prints a plan with every step, target, command line and mark', () => {
    const text = describePlan(planOf('cilium dev'));
    expect(text).toContain('Plan for `cilium dev` on dev: 8 steps (⚠ = stops for approval first)');
    expect(text).toContain('2. ⚠ cilium.yml → dev: all nodes');
    expect(text).toContain(`   ${ops}ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml`);
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
