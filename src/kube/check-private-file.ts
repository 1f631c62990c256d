import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Throws unless the file is a regular file of this process's user with mode 0600 in a directory of
 * its own with mode 0700: a file the bot wrote for itself, that nobody else could have replaced.
 */
export function checkPrivateFile(path: string, uid: number = process.getuid?.() ?? -1): void {
  const problems: string[] = [];
  const file = lstatSync(path);
  const dir = lstatSync(dirname(path));
  if (!file.isFile()) problems.push('not a regular file');
  if (file.uid !== uid) problems.push(`owned by uid ${file.uid}, not the bot's ${uid}`);
  if ((file.mode & 0o777) !== 0o600) problems.push(`mode ${octal(file.mode)}, not 0600`);
  if (!dir.isDirectory() || dir.uid !== uid || (dir.mode & 0o777) !== 0o700) {
    problems.push(
      `its directory is ${dir.isDirectory() ? `mode ${octal(dir.mode)} of uid ${dir.uid}` : 'not a directory'}, not 0700 of the bot's uid ${uid}`,
    );
  }
  if (problems.length > 0) throw new Error(`refused, not used: ${problems.join('; ')}`);
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
