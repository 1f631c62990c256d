import { ClusterBotError } from '../errors.js';

/**
 * Quotes one word for a POSIX shell: inside single quotes nothing is special, and an embedded quote
 * becomes `'\''`. NUL cannot travel in a C string, so it is refused rather than silently truncated.
 */
export function quoteShellArgument(value: string): string {
  if (value.includes('\0')) {
    throw new ClusterBotError('COMMAND_INVALID', 'A command argument contains a NUL byte', {
      details: { argument: JSON.stringify(value.slice(0, 80)) },
    });
  }
  return `'${value.replaceAll("'", "'\\''")}'`;
}
