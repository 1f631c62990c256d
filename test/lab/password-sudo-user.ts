import { execFile } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The prod nodes' login in the lab: not root, and its sudo asks for this password (held in the vault). */
export const PASSWORD_SUDO_USER = { user: 'cb-lab-ops', password: 'lab-become-password-1' } as const;

const SUDOERS_FILE = `/etc/sudoers.d/${PASSWORD_SUDO_USER.user}`;
// A real rule, as the operators' prod nodes have it: everything, but only with the password.
const SUDOERS_LINE = `${PASSWORD_SUDO_USER.user} ALL=(ALL:ALL) ALL\n`;
/**
 * Lab only, in a file of its own (an older lab rewrites the rule's file with the rule alone): a root
 * command keeps the lab node's view (its state dir and address, the stand-ins first on PATH), as a
 * real node's root finds the real k3s on secure_path.
 */
const LAB_ENV_FILE = `${SUDOERS_FILE}-lab-env`;
const LAB_ENV_LINES =
  `Defaults:${PASSWORD_SUDO_USER.user} env_keep += "LAB_STATE_DIR LAB_NODE_ADDRESS"\n` +
  `Defaults:${PASSWORD_SUDO_USER.user} !secure_path\n`;
/** useradd's exit code when the user exists (another test created it a moment ago). */
const USER_EXISTS = 9;

/**
 * Makes sure this machine has the lab's password-sudo user (Debian's sudo, a sudoers line without
 * NOPASSWD). Users and sudoers are global here and test files run at once: every part is safe to
 * repeat and to race (the same password, the same file content, moved into place in one rename).
 */
export async function ensurePasswordSudoUser(): Promise<typeof PASSWORD_SUDO_USER> {
  await run('sudo', ['-V']).catch(() => {
    throw new Error("the lab's password-sudo user needs Debian's sudo: run scripts/prepare-lab.sh");
  });
  const { user, password } = PASSWORD_SUDO_USER;
  if (!(await exists(user))) {
    await run('useradd', ['-m', '-s', '/bin/sh', user]).catch((error: { code?: number }) => {
      if (error.code !== USER_EXISTS) throw error;
    });
  }
  // A set password also unlocks the account: sshd (UsePAM no) refuses a locked one.
  await runWithInput('chpasswd', `${user}:${password}\n`);
  await installSudoers(SUDOERS_FILE, SUDOERS_LINE);
  await installSudoers(LAB_ENV_FILE, LAB_ENV_LINES);
  return PASSWORD_SUDO_USER;
}

async function installSudoers(file: string, content: string): Promise<void> {
  const staged = `${file}.${process.pid}.tmp`;
  await writeFile(staged, content, { mode: 0o440 });
  await run('visudo', ['-cqf', staged]);
  // sudo ignores files in sudoers.d whose names contain a dot, so the staged file is never read.
  await rename(staged, file);
}

async function exists(user: string): Promise<boolean> {
  return run('id', ['-u', user]).then(
    () => true,
    () => false,
  );
}

function runWithInput(command: string, input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, [], (error) => (error ? reject(error) : resolve()));
    child.stdin?.end(input);
  });
}
