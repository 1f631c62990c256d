import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { labTarget } from './lab-target.js';
import { runCollecting } from './run-collecting.js';

const NODES = ['127.0.0.51', '127.0.0.52', '127.0.0.53'];

/** The node-tools stand-ins, driven through exec as the bot will drive the real tools. */
describe('the lab node tools', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell();
  const on = (address: string, argv: string[]) =>
    runCollecting(shell, labTarget(lab, { host: address }), argv);

  beforeAll(async () => {
    lab = await startSshd({ addresses: NODES });
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('systemctl: is-active follows per-node state, stop records and deactivates', async () => {
    const [one, two, three] = NODES as [string, string, string];
    expect(await on(one, ['systemctl', 'is-active', 'vpn-egress-tunnel.service'])).toMatchObject({
      exitCode: 0,
      stdout: ['active'],
    });
    await lab.setNodeState('vpn-egress-tunnel.service', 'inactive', three);
    expect(await on(three, ['systemctl', 'is-active', 'vpn-egress-tunnel.service'])).toMatchObject({
      exitCode: 3,
      stdout: ['inactive'],
    });
    expect((await on(one, ['systemctl', 'is-active', 'vpn-egress-tunnel'])).exitCode).toBe(0);

    expect(await on(two, ['systemctl', 'stop', 'k3s'])).toMatchObject({
      exitCode: 0,
      stdout: [],
      stderr: [],
    });
    expect(await on(two, ['systemctl', 'stop', 'k3s.service'])).toMatchObject({ exitCode: 0 });
    expect(await lab.readNodeState('stopped-units', two)).toBe('k3s.service\nk3s.service\n');
    expect(await lab.readNodeState('stopped-units', one)).toBeUndefined();
    expect((await on(two, ['systemctl', 'is-active', '--quiet', 'k3s'])).exitCode).toBe(3);
    expect((await on(one, ['systemctl', 'is-active', 'k3s'])).exitCode).toBe(0);
  });

  it('systemctl show: the k3s unit command line, per node, as systemd prints it', async () => {
    const [one, two] = NODES as [string, string];
    const show = ['systemctl', 'show', '--property=ExecStart', '--value', 'k3s.service'];
    expect(await on(one, show)).toMatchObject({
      exitCode: 0,
      stdout: [
        expect.stringMatching(/^\{ path=\/usr\/local\/bin\/k3s ; argv\[\]=\/usr\/local\/bin\/k3s server ;/),
      ],
    });
    await lab.setNodeState(
      'k3s.service.ExecStart',
      '{ path=/usr/local/bin/k3s ; argv[]=/usr/local/bin/k3s server --disable-kube-proxy ; }',
      two,
    );
    expect((await on(two, show)).stdout).toEqual([
      '{ path=/usr/local/bin/k3s ; argv[]=/usr/local/bin/k3s server --disable-kube-proxy ; }',
    ]);
    expect((await on(one, ['systemctl', 'show', '--property=ExecStart', 'k3s'])).stdout[0]).toMatch(
      /^ExecStart=\{/,
    );
  });

  it('a node sees a mapped folder of this machine at its own path, and only that node', async () => {
    const [one, two] = NODES as [string, string];
    const folder = join(lab.dir, 'k3s-of-one');
    await mkdir(folder);
    await writeFile(join(folder, 'config.yaml'), 'disable-kube-proxy: true\n');
    await lab.mapNodePath(one, '/etc/rancher/k3s', folder);
    expect(await on(one, ['cat', '--', '/etc/rancher/k3s/config.yaml'])).toMatchObject({
      exitCode: 0,
      stdout: ['disable-kube-proxy: true'],
    });
    expect((await on(two, ['cat', '--', '/etc/rancher/k3s/config.yaml'])).exitCode).not.toBe(0);
    // The command log keeps what the client asked for.
    expect(await lab.commands()).toContain('cat -- /etc/rancher/k3s/config.yaml');
  });

  it('curl: answers the tun0 exit IP from state and never the network', async () => {
    const [one, , three] = NODES as [string, string, string];
    const lookup = ['curl', '-s', '--max-time', '10', '--interface', 'tun0', 'https://ipinfo.io/ip'];
    expect(await on(three, lookup)).toMatchObject({ exitCode: 0, stdout: ['203.0.113.7'] });
    await lab.setNodeState('tun0-exit-ip', '203.0.113.99', three);
    expect(await on(three, lookup)).toMatchObject({ exitCode: 0, stdout: ['203.0.113.99'] });
    expect(await on(one, lookup)).toMatchObject({ stdout: ['203.0.113.7'] });
    expect(await on(one, ['curl', '-s', 'https://ipinfo.io/ip'])).toMatchObject({
      stdout: ['198.51.100.20'],
    });
    await lab.setNodeState('tun0-exit-ip', '', three);
    expect((await on(three, lookup)).exitCode).toBe(45);
    expect((await on(one, ['curl', 'https://example.com/'])).exitCode).toBe(6);
  });

  it('tofu: plan -replace saves a plan whose show -json lists the changes; apply takes only that plan', async () => {
    const ops = NODES[0]!;
    const resource = 'proxmox_vm_qemu.k3s_node["k3s-dev-3"]';
    const planFile = `${lab.dir}/tofu/.terraform/job-1.tfplan`;
    const plan = await on(ops, ['tofu', 'plan', `-replace=${resource}`, `-out=${planFile}`, '-input=false']);
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain(`  # ${resource} will be replaced, as requested`);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    expect(plan.stdout).toContain(`Saved the plan to: ${planFile}`);
    const shown = await on(ops, ['tofu', 'show', '-json', planFile]);
    expect(JSON.parse(shown.stdout.join('\n')).resource_changes).toEqual([
      expect.objectContaining({ address: resource, change: { actions: ['delete', 'create'] } }),
    ]);
    expect(await on(ops, ['tofu', 'apply', '-input=false', planFile])).toMatchObject({
      exitCode: 0,
      stdout: ['Apply complete! Resources: 1 added, 0 changed, 1 destroyed.'],
    });
    expect(await lab.readNodeState('tofu-calls')).toBe(
      [
        `plan -replace=${resource} -out=${planFile} -input=false`,
        `show -json ${planFile}`,
        `apply -input=false ${planFile}`,
        '',
      ].join('\n'),
    );

    // Without a saved plan there is nothing to apply.
    expect(await on(ops, ['tofu', 'apply', `${lab.dir}/no-such.tfplan`])).toMatchObject({ exitCode: 1 });

    // Told to, the plan also updates a neighbour (what the bot must refuse).
    await lab.setNodeState('tofu-plan-extra', 'proxmox_vm_qemu.k3s_node["k3s-dev-2"]');
    const wider = await on(ops, ['tofu', 'plan', `-replace=${resource}`, `-out=${planFile}`]);
    expect(wider.stdout).toContain('Plan: 1 to add, 1 to change, 1 to destroy.');
    const widerShown = JSON.parse((await on(ops, ['tofu', 'show', '-json', planFile])).stdout.join('\n'));
    expect(widerShown.resource_changes.map((change: { address: string }) => change.address)).toEqual([
      resource,
      'proxmox_vm_qemu.k3s_node["k3s-dev-2"]',
    ]);
    await lab.setNodeState('tofu-plan-extra', null);

    await lab.setNodeState('tofu-fail', 'Error acquiring the state lock');
    expect(await on(ops, ['tofu', 'plan', `-replace=${resource}`])).toMatchObject({
      exitCode: 1,
      stdout: [],
      stderr: ['Error: Error acquiring the state lock'],
    });
    await lab.setNodeState('tofu-fail', null);
  });

  it('k3s-uninstall.sh: records that it ran on that node only, and stops k3s', async () => {
    const [one, two] = NODES as [string, string];
    expect((await on(two, ['k3s-uninstall.sh'])).exitCode).toBe(0);
    expect(await lab.readNodeState('k3s-uninstall', two)).toBe('ran\n');
    expect(await lab.readNodeState('k3s-uninstall', one)).toBeUndefined();
    expect(await on(two, ['systemctl', 'is-active', 'k3s'])).toMatchObject({
      exitCode: 3,
      stdout: ['inactive'],
    });
  });
});
