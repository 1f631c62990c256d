import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS, PROD_INVENTORY_ADDRESSES } from '../support/lab-names.js';
import { type LabWorld, startLabWorld } from '../support/lab-world.js';

const run = promisify(execFile);

let lab: LabWorld;
beforeAll(async () => {
  // Prod's nodes as the ops host's Ansible reaches them: over SSH, as a login whose sudo needs the vault.
  lab = await startLabWorld({
    repo: { prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: 'encrypted', blocked: false },
    prodLogin: 'password-sudo',
  });
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

/** `ansible <host> -m ping` in the repo on the ops host, with its ansible.cfg, as the bot runs Ansible there. */
async function ping(host: string): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout, stderr } = await run('ansible', [host, '-m', 'ping'], {
      cwd: lab.repo.ansibleDir,
      env: {
        ...process.env,
        ...lab.repo.ansibleEnv,
        ANSIBLE_CONFIG: `${lab.repo.ansibleDir}/ansible.cfg`,
        ANSIBLE_VAULT_PASSWORD_FILE: lab.repo.vaultPasswordFile,
      },
    });
    return { exitCode: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { exitCode: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the ops host's Ansible checks host keys, as the operators' repo does (real ansible, sshd)", () => {
  it(
    "reaches a prod node whose key its known_hosts holds, and refuses it once the node's key changed",
    async () => {
      const known = await ping('k3s-prod-2');
      expect(known.output).toContain('"ping": "pong"');
      expect(known.exitCode).toBe(0);

      // k3s-prod-2 reinstalled outside the bot: a new host key, the known_hosts as it was.
      await lab.nodes.rotateHostKey(PROD_INVENTORY_ADDRESSES['k3s-prod-2']);
      // Ansible's ControlPersist connection would outlive the reinstall; a real one does not.
      await lab.nodes.killSessions();
      const changed = await ping('k3s-prod-2');
      expect(changed.exitCode).not.toBe(0);
      expect(changed.output).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/);
      expect(changed.output).not.toContain('"ping": "pong"');
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
