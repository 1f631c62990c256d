import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteArgv } from '../../src/lifecycle/quote-argv.js';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { PASSWORD_SUDO_USER } from '../lab/password-sudo-user.js';
import { LAB_TEST_TIMEOUT_MS, PROD_ADDRESSES } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const run = promisify(execFile);

let lab: LifecycleLab;
beforeAll(async () => {
  // Prod as the operators will have it: three racked servers, the vault encrypted for real, and node
  // logins whose sudo needs the become password the vault holds.
  lab = await startLifecycleLab({
    repo: { prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: 'encrypted', blocked: false },
    prodLogin: 'password-sudo',
    prod: 'formed',
  });
  await lab.repo.giveProdItsOwnFluxPath();
  await lab.repo.commit('prod: racked, its own Flux path, vault encrypted');
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

const PROD_VARS =
  '-e k3s_hosts=k3s_prod -e k3s_primary_hosts=k3s_prod_primary -e k3s_secondary_hosts=k3s_prod_secondary';

describe('prod with an encrypted vault and password sudo', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('the lab is what prod is: the vault is ciphertext and the node login cannot sudo without a password', async () => {
    expect((await lab.repo.readFile(INFRA_REPO_PATHS.prodVault)).split('\n')[0]).toBe(
      '$ANSIBLE_VAULT;1.1;AES256',
    );
    expect(lab.world.clusters.prod!.nodeSsh.user).toBe(PASSWORD_SUDO_USER.user);
  });

  it('verify prod reads how k3s starts from each Node, never with a sudo it has no password for', async () => {
    const job = lab.startJob('verify prod');
    const result = await job.runUntilDone();
    expect(job.reporter.events.filter((event) => event.type === 'gate-failed')).toEqual([]);
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(job.texts()).toContainEqual(
      expect.stringContaining(
        "k3s starts with disable-kube-proxy on k3s-prod-1, k3s-prod-2, k3s-prod-3 (their Nodes' k3s.io/node-args)",
      ),
    );
    expect((await lab.nodes.commands()).filter((line) => line.includes('sudo -n cat'))).toEqual([]);
  });

  it('plan up prod runs every check to the end and passes', async () => {
    const job = lab.startJob('plan up prod');
    const result = await job.runUntilDone();
    expect(job.reporter.planFailure()?.details?.failures).toBeUndefined();
    expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(job.approvals.requests).toEqual([]);
    expect(await lab.playbookRuns()).toEqual([]);
  });

  it('a vault that does not decrypt with the ops host’s password file refuses plan up prod, the file alone is not enough', async () => {
    const password = await readFile(lab.repo.vaultPasswordFile, 'utf8');
    await writeFile(lab.repo.vaultPasswordFile, 'not-the-vault-password\n');
    try {
      const job = lab.startJob('plan up prod');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.planFailure()?.details?.failures).toEqual([
        `1. preconditions: ${INFRA_REPO_PATHS.prodVault} does not decrypt on the ops host with the vault password file ${lab.repo.vaultPasswordFile}: ERROR! Decryption failed (no vault secrets were found that could decrypt) on ${lab.repo.root}/${INFRA_REPO_PATHS.prodVault}`,
      ]);
      expect(job.texts().join('\n')).not.toContain(PASSWORD_SUDO_USER.password);
    } finally {
      await writeFile(lab.repo.vaultPasswordFile, password);
    }
  });

  it('a prod host whose host_vars take its become password away refuses plan up prod, naming that host: every host is asked, not the first', async () => {
    const hostVars = 'infra/ansible/inventory/host_vars/k3s-prod-3.yml';
    await lab.repo.writeFile(hostVars, 'ansible_become_password: ""\n');
    await lab.repo.commit('prod: k3s-prod-3 without a become password');
    try {
      const job = lab.startJob('plan up prod');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.planFailure()?.details?.failures).toContain(
        `1. preconditions: ${INFRA_REPO_PATHS.prodVault} decrypts but gives k3s-prod-3 no ansible_become_password: no prod play can escalate`,
      );
      // One ad-hoc call asked all three.
      const asked = (await lab.ops.commands()).filter((line) => line.includes('ansible_become_password'));
      expect(asked.at(-1)).toContain(
        ' ansible -i inventory/hosts.ini k3s-prod-1,k3s-prod-2,k3s-prod-3 -m debug -a ',
      );
    } finally {
      await lab.repo.removeFile(hostVars);
      await lab.repo.commit('prod: k3s-prod-3 has its become password back');
    }
  });

  it('a repo without infra/ansible/ansible.cfg is refused naming it and hosts.ini, before any play: Ansible would fall back to settings nobody approved', async () => {
    const config = await lab.repo.readFile('infra/ansible/ansible.cfg');
    await lab.repo.removeFile('infra/ansible/ansible.cfg');
    await lab.repo.commit('ansible.cfg gone');
    try {
      const before = (await lab.playbookRuns()).length;
      const job = lab.startJob('packages k3s-prod-1');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(job.reporter.planFailure()?.details?.failures).toContainEqual(
        expect.stringMatching(
          /^infra\/ansible\/ansible\.cfg is missing, so Ansible on the ops host reads .+ instead: settings no approval covers, while the bot's checks read infra\/ansible\/inventory\/hosts\.ini; commit the repo's ansible\.cfg$/,
        ),
      );
      expect(job.approvals.requests).toEqual([]);
      expect((await lab.playbookRuns()).length).toBe(before);
    } finally {
      await lab.repo.writeFile('infra/ansible/ansible.cfg', config);
      await lab.repo.commit('ansible.cfg back');
    }
  });

  it('a prod play runs with the vault password file, the repo’s ansible.cfg and prod’s own KUBECONFIG', async () => {
    const job = lab.startJob('packages k3s-prod-1');
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    const run = (await lab.ops.commands()).find((line) =>
      line.endsWith(
        `ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      ),
    );
    expect(run).toContain(` ANSIBLE_CONFIG=${lab.repo.ansibleDir}/ansible.cfg `);
    expect(run).toContain(` KUBECONFIG=${lab.repo.root}/.cache/prod.kubeconfig `);
    expect(run).toContain(` ANSIBLE_VAULT_PASSWORD_FILE=${lab.repo.vaultPasswordFile} `);
  });

  it('reprovision k3s-prod-2 is refused before any cordon when the vault holds no become password: every root command and node is named', async () => {
    const vault = await lab.repo.readFile(INFRA_REPO_PATHS.prodVault);
    try {
      await lab.repo.writeFile(INFRA_REPO_PATHS.prodVault, 'prod_backup_key: lab-not-a-become-password\n');
      // The ops host's shell points ansible-vault at the password file, as for every other run.
      await run('ansible-vault', ['encrypt', INFRA_REPO_PATHS.prodVault], {
        cwd: lab.repo.root,
        env: { ...process.env, ...lab.repo.ansibleEnv },
      });
      await lab.repo.commit('prod: a vault without the become password');
      const job = lab.startJob('reprovision k3s-prod-2');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      const user = PASSWORD_SUDO_USER.user;
      const why = (node: string) =>
        `sudo for ${user} there needs a password the bot does not hold, and the ops host's Ansible cannot become root there either ` +
        `(${INFRA_REPO_PATHS.prodVault} decrypts but gives ${node} no ansible_become_password: no prod play can escalate); ` +
        "fix the vault, or give the bot's login passwordless sudo for these commands";
      expect(job.reporter.planFailure()?.details?.failures).toEqual([
        `\`k3s etcd-snapshot save\` (the etcd snapshot before k3s-prod-2 is taken away) cannot run as root on k3s-prod-1: ${why('k3s-prod-1')}`,
        `\`systemctl stop k3s\` (so k3s-prod-2 does not re-register its Node), \`k3s-uninstall.sh\` (clears the old k3s and etcd data of bare-metal k3s-prod-2 before it re-joins) cannot run as root on k3s-prod-2: ${why('k3s-prod-2')}`,
        // k3s.yml re-joins k3s-prod-2 with the node-token read as root on the founder.
        `${INFRA_REPO_PATHS.prodVault} decrypts but gives k3s-prod-1, k3s-prod-2 no ansible_become_password: no prod play can escalate`,
      ]);
      expect(job.approvals.requests).toEqual([]);
      expect(job.texts()).toContain('2-cordon-drain skipped: not run');
      const prodNode = lab.prodSim!.state().nodes.find((entry) => entry.metadata.name === 'k3s-prod-2');
      expect(prodNode?.spec.unschedulable).toBeFalsy();
      expect(await lab.nodes.readNodeState('etcd-snapshots', PROD_ADDRESSES['k3s-prod-1'])).toBeUndefined();
    } finally {
      await lab.repo.writeFile(INFRA_REPO_PATHS.prodVault, vault);
      await lab.repo.commit('prod: the vault back');
    }
  });

  // Last: it takes k3s-prod-2 out of prod.
  it('reprovision k3s-prod-2 runs its root commands through the ops host’s Ansible with become, and they really run as root', async () => {
    const job = lab.startJob('reprovision k3s-prod-2');
    let result = await job.run();
    // Up to the rebuild's first playbook (past the reinstall by hand and the host key): what needs root on the nodes has run by then.
    while (result.status === 'waiting' && !result.stepId.endsWith('node-baseline')) {
      job.approvals.approve(result.stepId);
      result = await job.run();
    }
    expect(job.reporter.planFailure()).toBeUndefined();
    expect(result).toMatchObject({ status: 'waiting', stepId: '9-node-baseline' });

    // What the lab's stand-ins record, and they refuse anyone but root.
    const saved = await lab.nodes.readNodeState('etcd-snapshots', PROD_ADDRESSES['k3s-prod-1']);
    expect(saved).toMatch(new RegExp(`^cluster-bot-${job.jobId}-k3s-prod-1-\\d+\\n$`));
    expect(await lab.nodes.readNodeState('stopped-units', PROD_ADDRESSES['k3s-prod-2'])).toBe(
      'k3s.service\n',
    );
    expect(await lab.nodes.readNodeState('k3s-uninstall', PROD_ADDRESSES['k3s-prod-2'])).toBe('ran\n');
    const texts = job.texts();
    expect(texts).toContainEqual(
      expect.stringContaining(`etcd snapshot ${saved!.trim()} saved on k3s-prod-1`),
    );
    expect(texts).toContain('8-k3s-uninstall succeeded: k3s and its etcd data removed from k3s-prod-2');

    // Each ran as the ops host's ad-hoc Ansible, with the vault, never as sudo -n over the bot's login.
    const adhoc = (host: string, argv: string[]) =>
      quoteArgv([
        'ansible',
        '-i',
        'inventory/hosts.ini',
        host,
        '-b',
        '-m',
        'command',
        '-a',
        JSON.stringify({ argv, strip_empty_ends: false }),
      ]);
    const opsLines = await lab.ops.commands();
    for (const [host, argv] of [
      ['k3s-prod-1', ['k3s', 'etcd-snapshot', 'save', '--name', `cluster-bot-${job.jobId}`]],
      ['k3s-prod-2', ['systemctl', 'stop', 'k3s']],
      ['k3s-prod-2', ['k3s-uninstall.sh']],
    ] as const) {
      const line = opsLines.find((entry) => entry.endsWith(` ${adhoc(host, [...argv])}`));
      expect(line, `${host}: ${argv.join(' ')}`).toContain(
        ` ANSIBLE_VAULT_PASSWORD_FILE=${lab.repo.vaultPasswordFile} `,
      );
    }
    const uninstall = job.approvals.requests.find((request) => request.stepId === '8-k3s-uninstall');
    expect(uninstall?.binding.commandLine).toBe(
      `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.ansibleDir} && ${adhoc('k3s-prod-2', ['k3s-uninstall.sh'])}`,
    );
    const nodeLines = await lab.nodes.commands();
    expect(
      nodeLines.filter((line) => line.includes('sudo -H -S -p "[sudo via ansible')).length,
    ).toBeGreaterThanOrEqual(3);
    expect(nodeLines.filter((line) => /sudo -n (k3s|systemctl|k3s-uninstall)/.test(line))).toEqual([]);
    expect(texts.join('\n')).not.toContain(PASSWORD_SUDO_USER.password);
  });
});
