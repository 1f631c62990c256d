import { execFile } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The prod nodes' login in the lab: not root, and its sudo asks for this password (held in the vault). */
export const PASSWORD_SUDO_USER = { user: 'cb-lab-ops', password: 'lab-become-password-1' } as const;

const SUDOERS_FILE = `/etc/sudoers.d/${PASSWORD_SUDO_USER.user}`;
// A real rule, as the operators' prod nodes have it: everything, but only with the password.
const SUDOERS_LINE = `${PASSWORD_SUDO_USER.user} ALL=(ALL:ALL) ALL\n`;
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
  const staged = `${SUDOERS_FILE}.${process.pid}.tmp`;
  await writeFile(staged, SUDOERS_LINE, { mode: 0o440 });
  await run('visudo', ['-cqf', staged]);
  // sudo ignores files in sudoers.d whose names contain a dot, so the staged file is never read.
  await rename(staged, SUDOERS_FILE);
  return PASSWORD_SUDO_USER;
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
