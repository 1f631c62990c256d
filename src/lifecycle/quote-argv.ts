import { ClusterBotError } from '../errors.js';

/**
 * Quotes one word for a POSIX shell: plain words stay as they are, anything else goes inside single
 * quotes, where nothing is special, with an embedded quote as `'\''`. The only way the bot turns an
 * argv into a remote command line. NUL cannot travel in a C string, so it is refused.
 */
export function quoteShellArgument(value: string): string {
  if (value.includes('\0')) {
    throw new ClusterBotError('COMMAND_INVALID', 'A command argument contains a NUL byte', {
      details: { argument: JSON.stringify(value.slice(0, 80)) },
    });
  }
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteShellArgument).join(' ');
}
