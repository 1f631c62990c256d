import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { PASSWORD_SUDO_USER } from '../lab/password-sudo-user.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  // Prod as the operators will have it: three racked servers, the vault encrypted for real, and node
  // logins whose sudo needs the become password the vault holds.
  lab = await startLifecycleLab({
    repo: { prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: 'encrypted', blocked: false },
    prodLogin: 'password-sudo',
    prod: 'formed',
  });
  const script = await lab.repo.readFile('bootstrap/flux/bootstrap.sh');
  await lab.repo.writeFile(
    'bootstrap/flux/bootstrap-prod.sh',
    script.replace('clusters/dev', 'clusters/prod'),
  );
  const prodVars = await lab.repo.readFile(INFRA_REPO_PATHS.prodVars);
  await lab.repo.writeFile(
    INFRA_REPO_PATHS.prodVars,
    `${prodVars}flux_bootstrap_flux_cmd: bootstrap/flux/bootstrap-prod.sh\n`,
  );
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

  it('reprovision k3s-prod-2 is refused before any cordon: every root command and node it needs sudo for is named', async () => {
    const job = lab.startJob('reprovision k3s-prod-2');
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'failed',
    });
    const user = PASSWORD_SUDO_USER.user;
    const advice =
      "cannot run; run them from the ops host with become, or give the bot's login passwordless sudo for these commands";
    expect(job.reporter.planFailure()?.details?.failures).toEqual([
      `sudo for ${user} on k3s-prod-1 needs a password the bot does not hold: \`k3s etcd-snapshot save\` (the etcd snapshot before k3s-prod-2 is taken away) ${advice}`,
      `sudo for ${user} on k3s-prod-2 needs a password the bot does not hold: \`systemctl stop k3s\` (so k3s-prod-2 does not re-register its Node), \`k3s-uninstall.sh\` (clears the old k3s and etcd data of bare-metal k3s-prod-2 before it re-joins) ${advice}`,
    ]);
    expect(job.approvals.requests).toEqual([]);
    expect(job.texts()).toContain('2-cordon-drain skipped: not run');
    const prodNode = lab.prodSim!.state().nodes.find((entry) => entry.metadata.name === 'k3s-prod-2');
    expect(prodNode?.spec.unschedulable).toBeFalsy();
    expect((await lab.nodes.commands()).filter((line) => line.includes('etcd-snapshot'))).toEqual([]);
  });

  it('a prod play runs with the vault password file, the repo’s ansible.cfg and prod’s own KUBECONFIG', async () => {
    const job = lab.startJob('packages k3s-prod-1');
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    const run = (await lab.ops.commands()).find((line) =>
      line.endsWith(
        `ansible-playbook playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      ),
    );
    expect(run).toContain(` ANSIBLE_CONFIG=${lab.repo.ansibleDir}/ansible.cfg `);
    expect(run).toContain(` KUBECONFIG=${lab.repo.root}/.cache/prod.kubeconfig `);
    expect(run).toContain(` ANSIBLE_VAULT_PASSWORD_FILE=${lab.repo.vaultPasswordFile} `);
  });
});
